const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript|manifest\+json)|image\/svg\+xml)/

/**
 * Gzips a live answer (rendered pages, API JSON) when the client accepts it. CompressionStream is a
 * Web API, so this runs on Node and edge runtimes alike; static and prerendered files come precompressed.
 */
export function compressed(request: Request, response: Response): Response {
  if (!response.body || response.headers.has('content-encoding') || response.status === 204 || response.status === 304)
    return response
  const type = response.headers.get('content-type') ?? ''
  // An event stream is read as it is written; a compressor would hold events back until its block fills.
  if (!COMPRESSIBLE.test(type) || type.startsWith('text/event-stream')) return response
  if (!/\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')) return response
  // Small answers (most API JSON) gain nothing from compression but pay for it.
  const length = Number(response.headers.get('content-length') ?? Number.POSITIVE_INFINITY)
  if (length < 1024) return response
  const headers = new Headers(response.headers)
  headers.set('content-encoding', 'gzip')
  headers.delete('content-length')
  headers.append('vary', 'Accept-Encoding')
  return new Response(response.body.pipeThrough(new CompressionStream('gzip')), {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}
