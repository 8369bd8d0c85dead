import { createMiddleware } from '@tanstack/react-start'
import { currentRequest, type RequestContext } from '~/server/request-context'
import { errorResponse, HttpError } from '~/server/http/errors'

/**
 * The one place a failed server function call becomes spec §8's answer: the status and `{detail}` the
 * REST routes give for the same failure. Refusals thrown by the request middleware before it (a cross-site
 * write, a body over its limit) Start marks as thrown for the caller itself.
 */

/** The requests whose call reached a server function (its middleware, validator or handler). */
const reached = new WeakSet<RequestContext>()

/**
 * Around every server function (the start instance's function middleware): marks the request as having
 * reached one, and turns anything it throws into the answer from the one refusal table (a bare 500 for the
 * unexpected), logged once. Start hands a thrown Response to the caller as it is, and the caller's `apiCall`
 * middleware (app/lib/api-call.ts) makes it an ApiError reading "status: detail".
 */
export const serverFnErrors = createMiddleware({ type: 'function' }).server(async ({ next }) => {
  const request = currentRequest()
  if (request) reached.add(request)
  try {
    return await next()
  } catch (error) {
    throw error instanceof Response ? error : errorResponse(error)
  }
})

/**
 * Around Start's handling of a server function call: what Start refuses before any server function runs
 * (an unknown function id, a body that is not the JSON or form it can decode) is the caller's fault,
 * answered 404 or 400 `{detail}` rather than Start's serialized 500.
 */
export const serverFnCalls = createMiddleware().server(({ pathname, next }) => {
  // Any other request passes on as it is, not awaited here: each middleware still waiting on the next holds
  // an abort listener on the request's signal, and Node warns on every request past ten.
  if (!pathname.startsWith('/_serverFn/')) return next()
  return (async () => {
    const request = currentRequest()
    let result: Awaited<ReturnType<typeof next>>
    try {
      result = await next()
    } catch (error) {
      // Start looks the function up before its own error handling starts: only an unknown id gets here.
      if (request && reached.has(request)) throw error
      throw errorResponse(new HttpError(404, 'Unknown server function', { cause: error }))
    }
    if (result.response.status >= 500 && request && !reached.has(request)) {
      await result.response.body?.cancel()
      throw errorResponse(new HttpError(400, 'Malformed server function call'))
    }
    return result
  })()
})
