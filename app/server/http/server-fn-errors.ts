import { currentRequest, type RequestContext } from '../request-context'
import { errorResponse, HttpError } from './errors'

/** The requests whose call reached a server function (its middleware, validator or handler). */
const reached = new WeakSet<RequestContext>()

/**
 * Run by the start instance's function middleware (app/start.ts) around every server function: marks the
 * request as having reached one, and turns anything it throws into the answer the REST routes give (a
 * refusal's status and `{detail}`, a bare 500 otherwise), logged once. Start hands a thrown Response to
 * the caller as it is.
 */
export async function runServerFn<T>(next: () => Promise<T>): Promise<T> {
  const request = currentRequest()
  if (request) reached.add(request)
  try {
    return await next()
  } catch (error) {
    throw error instanceof Response ? error : errorResponse(error)
  }
}

/**
 * Runs a server function call through Start. What Start refuses before any server function runs (an
 * unknown function id, a body that is not the JSON or form it can decode) is the caller's fault:
 * answered 404 or 400 `{detail}` rather than Start's serialized 500.
 */
export async function guardServerFnCall<R extends { response: Response }>(
  pathname: string,
  call: () => Promise<R> | R,
): Promise<R | Response> {
  if (!pathname.startsWith('/_serverFn/')) return call()
  const request = currentRequest()
  let result: R
  try {
    result = await call()
  } catch (error) {
    // Start looks the function up before its own error handling starts: only an unknown id gets here.
    if (request && reached.has(request)) throw error
    return errorResponse(new HttpError(404, 'Unknown server function', { cause: error }))
  }
  if (result.response.status >= 500 && request && !reached.has(request)) {
    await result.response.body?.cancel()
    return errorResponse(new HttpError(400, 'Malformed server function call'))
  }
  return result
}
