import { createMiddleware } from '@tanstack/react-start'
import { withAnswerHeaders } from '~/server/http/answer-headers'

/** Every answer leaves with the security headers, CORS, its request id (app/server/http/answer-headers.ts). */
export const answerHeaders = createMiddleware().server(async ({ request, pathname, next }) => {
  const result = await next()
  result.response = withAnswerHeaders(result.response, request, pathname)
  return result
})
