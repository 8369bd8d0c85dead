/**
 * Redirects built from the request's URL (Start's `//path` normalisation answers `308` with an absolute
 * URL) carry whatever Host header the client sent, and a cache in front would hand that Location to
 * everyone. A Location on the request's own origin is therefore sent as a path: browsers resolve it
 * against the address they asked, and no header can point it elsewhere. Redirects to other origins
 * (none today) pass as they are.
 */
export function withRelativeLocation(request: Request, response: Response): Response {
  const location = response.headers.get('location')
  if (location === null) return response
  const own = new URL(request.url)
  let target: URL
  try {
    target = new URL(location, own)
  } catch {
    return response
  }
  if (target.origin !== own.origin) return response
  // One leading slash: "//host" or "/\host" would be read as another origin.
  const path = `/${target.pathname.replace(/^[/\\]+/, '')}${target.search}${target.hash}`
  if (path === location) return response
  try {
    response.headers.set('location', path)
    return response
  } catch {
    // Response.redirect() makes immutable headers: answer with a copy.
    const copy = new Response(response.body, response)
    copy.headers.set('location', path)
    return copy
  }
}
