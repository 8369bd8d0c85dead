import { createMiddleware } from '@tanstack/react-start'
import { serverEnv } from '~/server/env'
import { runInRequest } from '~/server/request-context'
import { requestIdOf } from '~/server/http/request-id'

/**
 * First on every request: the environment, read once, and the request's id go into the request context
 * (`currentRequest()`, read-only: log lines and the HTTP edge read it, and the edge hands the id to the
 * operations in their Caller); the public origin (canonical links) and the API base URL
 * (code samples, demo curls) go into Start's context for app/routes/__root.tsx, so no page code imports
 * the server's environment. API paths get them too, since an unknown one renders the not-found page.
 */
export const requestScope = createMiddleware().server(({ request, pathname, next }) => {
  const env = serverEnv()
  const context = { env, requestId: requestIdOf(request), method: request.method, path: pathname }
  return runInRequest(context, () =>
    next({ context: { baseUrl: env.PUBLIC_BASE_URL, apiBaseUrl: env.PUBLIC_API_BASE_URL } }),
  )
})
