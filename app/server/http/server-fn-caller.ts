import { getCookie, getRequest } from '@tanstack/react-start/server'
import type { Caller } from '../api/caller'
import type { Served } from '../api/search/served'
import { callerOf } from './caller-of'
import { errorResponse } from './errors'

const presented = (apiKey: string | undefined) => apiKey ?? getCookie('apiKey') ?? undefined

/**
 * The caller of a server function: the key the dashboard sent in the input, or else the `apiKey` cookie
 * the site keeps for the parent domain (spec §4). Cross-site calls never get this far: the request
 * middleware refuses a foreign Origin on every POST.
 */
export function serverFnCaller(apiKey?: string): Caller {
  return callerOf(getRequest(), presented(apiKey))
}

/**
 * A server function that meters (the dashboard's classifier calls), run as a metered endpoint runs: its caller
 * carries a request log row under `product`, written when the call ends with the status and engine the REST
 * answer would have had, so a charge made from the dashboard is in the log as the same call through the API is.
 * A failure leaves as its answer (server-fn-answers.ts passes a Response on as it is).
 */
export async function meteredServerFn<T>(
  apiKey: string | undefined,
  product: string,
  run: (caller: Caller) => Promise<Served<T>>,
): Promise<T> {
  const caller = callerOf(getRequest(), presented(apiKey), product)
  const record = caller.requestLog!
  try {
    const served = await run(caller)
    await record.close(200, served.engine)
    return served.answer
  } catch (error) {
    const answer = error instanceof Response ? error : errorResponse(error)
    await record.close(answer.status, null)
    throw answer
  }
}
