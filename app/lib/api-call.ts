import { createMiddleware } from '@tanstack/react-start'
import { toApiError } from './api-error'

/**
 * The caller's side of every dashboard, sign-in and checkout server function. On the server a failure is
 * answered as the REST routes answer it (app/middleware/server-fn-answers.ts, for every server
 * function); here the thrown answer becomes an ApiError whose message is spec §8's "status: detail".
 */
export const apiCall = createMiddleware({ type: 'function' }).client(async ({ next }) => {
  try {
    return await next()
  } catch (error) {
    throw await toApiError(error)
  }
})
