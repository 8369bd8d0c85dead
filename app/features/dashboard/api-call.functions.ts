import { createMiddleware } from '@tanstack/react-start'
import { toApiError } from '~/lib/api-error'
import { errorResponse } from '~/server/http/errors'

/**
 * Every dashboard server function runs inside this. On the server a refusal or failure is logged once
 * and answered exactly as the REST route answers it: the status and `{detail}` from the one refusal
 * table. Start hands a thrown Response to the browser as it is (a thrown Error would lose its status),
 * and there it becomes an ApiError whose message is spec §8's "status: detail".
 */
export const apiCall = createMiddleware({ type: 'function' })
  .client(async ({ next }) => {
    try {
      return await next()
    } catch (error) {
      throw await toApiError(error)
    }
  })
  .server(async ({ next }) => {
    try {
      return await next()
    } catch (error) {
      throw errorResponse(error)
    }
  })
