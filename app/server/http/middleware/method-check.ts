import { createMiddleware } from '@tanstack/react-start'
import { unknownEndpoint, wrongMethod } from '../methods'
import { isApiPath } from '../security'

type EndpointMethods = (pathname: string) => string[] | undefined

/**
 * The methods the endpoint at a path has handlers for, read from the route tree. The server entry
 * (app/server.ts) provides it: this file, loaded by app/start.ts, may not import the route tree, whose
 * generated types import app/start.ts (an import circle through every route).
 */
let endpointMethods: EndpointMethods = () => undefined

export function provideEndpointMethods(lookup: EndpointMethods): void {
  endpointMethods = lookup
}

/**
 * An endpoint asked with a method it has no handler for answers 405 with `Allow` before anything else runs
 * (Start would render the app shell), and an API path no endpoint serves answers a JSON 404.
 */
export const methodCheck = createMiddleware().server(({ request, pathname, next }) => {
  const methods = endpointMethods(pathname)
  const refusal = methods
    ? wrongMethod(request.method, methods)
    : isApiPath(pathname) && !pathname.startsWith('/_serverFn/')
      ? unknownEndpoint()
      : undefined
  return refusal ?? next()
})
