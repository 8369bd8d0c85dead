import { HttpError, errorResponse } from './errors'

/** What `Allow` lists for an endpoint with handlers for these methods: HEAD comes with GET (Start answers it). */
function allowed(handlerMethods: readonly string[]): string[] {
  const methods = new Set(handlerMethods.map((m) => m.toUpperCase()))
  if (methods.has('GET')) methods.add('HEAD')
  methods.add('OPTIONS')
  return [...methods]
}

/**
 * The answer to a method the endpoint has no handler for: 405 `{detail}` with `Allow` (Start would
 * render the HTML app shell instead), or, for OPTIONS, 204 with `Allow`. Undefined when the method is
 * handled, or when the path is not an endpoint (`handlerMethods` undefined) or takes any method.
 */
export function wrongMethod(method: string, handlerMethods: readonly string[] | undefined): Response | undefined {
  if (!handlerMethods || handlerMethods.includes('ANY')) return undefined
  const allow = allowed(handlerMethods)
  if (handlerMethods.includes(method) || (method === 'HEAD' && allow.includes(method))) return undefined
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: allow.join(', ') } })
  const response = errorResponse(new HttpError(405, 'Method not allowed'))
  response.headers.set('Allow', allow.join(', '))
  return response
}

/** An API path no endpoint serves: a JSON 404, not the page a browser gets for an unknown address. */
export const unknownEndpoint = () => errorResponse(new HttpError(404, 'Unknown endpoint'))

/** The handlers of a catch-all route under an API prefix: every method of an unknown path gets that 404. */
export const unknownEndpointHandlers = {
  GET: unknownEndpoint,
  POST: unknownEndpoint,
  PUT: unknownEndpoint,
  PATCH: unknownEndpoint,
  DELETE: unknownEndpoint,
}
