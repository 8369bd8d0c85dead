type EndpointMethods = (pathname: string) => string[] | undefined

/**
 * The methods the endpoint at a path has handlers for, read from the route tree. The server entry
 * (app/server.ts) provides it: the request middleware, loaded by app/start.ts, may not import the route
 * tree, whose generated types import app/start.ts (an import circle through every route).
 */
let lookup: EndpointMethods = () => undefined

export function provideEndpointMethods(methods: EndpointMethods): void {
  lookup = methods
}

export const endpointMethodsOf: EndpointMethods = (pathname) => lookup(pathname)
