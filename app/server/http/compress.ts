import { Duplex } from 'node:stream'
import { constants, createBrotliCompress } from 'node:zlib'

const COMPRESSIBLE = /^(text\/|application\/(json|xml|javascript|manifest\+json)|image\/svg\+xml)/

/**
 * Brotli at quality 5 for pages: a live page with its hydration data is 12 KB where gzip makes it 16, so it fits
 * the first round trip as the prerendered ones (brotli at 10, done at build) do; about 2 ms for 100 KB, where the
 * default quality (11, all CompressionStream offers) takes 90. Other answers (API JSON up to megabytes) stay gzip.
 */
const brotliPage = (): ReadableWritablePair<Uint8Array, Uint8Array> =>
  Duplex.toWeb(createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })) as ReadableWritablePair<
    Uint8Array,
    Uint8Array
  >

function encodingFor(request: Request, type: string): 'br' | 'gzip' | undefined {
  const accepted = request.headers.get('accept-encoding') ?? ''
  if (type.startsWith('text/html') && /\bbr\b/.test(accepted)) return 'br'
  if (/\bgzip\b/.test(accepted)) return 'gzip'
  return undefined
}

/**
 * Compresses a live answer (rendered pages, API JSON) when the client accepts it: brotli for pages, gzip for the
 * rest. The Worker has its own twin (compress.edge.ts); static and prerendered files come precompressed.
 */
export function compressed(request: Request, response: Response): Response {
  if (!response.body || response.headers.has('content-encoding') || response.status === 204 || response.status === 304)
    return response
  const type = response.headers.get('content-type') ?? ''
  // An event stream is read as it is written; a compressor would hold events back until its block fills.
  if (!COMPRESSIBLE.test(type) || type.startsWith('text/event-stream')) return response
  const encoding = encodingFor(request, type)
  if (!encoding) return response
  // Small answers (most API JSON) gain nothing from compression but pay for it.
  const length = Number(response.headers.get('content-length') ?? Number.POSITIVE_INFINITY)
  if (length < 1024) return response
  const headers = new Headers(response.headers)
  headers.set('content-encoding', encoding)
  headers.delete('content-length')
  headers.append('vary', 'Accept-Encoding')
  const body = response.body.pipeThrough(encoding === 'br' ? brotliPage() : new CompressionStream('gzip'))
  return new Response(body, { status: response.status, statusText: response.statusText, headers })
}
