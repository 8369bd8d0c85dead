import { createMiddleware } from '@tanstack/react-start'
import { endpointMethodsOf } from '~/server/http/endpoint-methods-lookup'
import { unknownEndpoint, wrongMethod } from '~/server/http/methods'
import { isApiPath } from '~/server/http/security'

/**
 * An endpoint asked with a method it has no handler for answers 405 with `Allow` before anything else runs
 * (Start would render the app shell), and an API path no endpoint serves answers a JSON 404.
 */
export const methodCheck = createMiddleware().server(({ request, pathname, next }) => {
  const methods = endpointMethodsOf(pathname)
  const refusal = methods
    ? wrongMethod(request.method, methods)
    : isApiPath(pathname) && !pathname.startsWith('/_serverFn/')
      ? unknownEndpoint()
      : undefined
  return refusal ?? next()
})
