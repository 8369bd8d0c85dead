import { PageNotRead } from '../../domain/refusals'

/** Media types the reader converts, by how it reads them. */
const readable: Record<string, 'html' | 'text' | 'json' | 'pdf'> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'text/markdown': 'text',
  'text/x-markdown': 'text',
  'text/csv': 'text',
  'application/json': 'json',
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
}

export type PageKind = (typeof readable)[string]

export function pageKindOf(mediaType: string): PageKind {
  return readable[mediaType] ?? 'text'
}

/** The media type and charset of a Content-Type header; a type the reader cannot convert is refused with 422. */
export function readableMediaType(header: string | undefined): { mediaType: string; charset: string | undefined } {
  // A page without a type is read as HTML, as browsers sniff most of them to be.
  const [type, ...params] = (header ?? 'text/html').split(';')
  const mediaType = type.trim().toLowerCase() || 'text/html'
  if (!(mediaType in readable))
    throw new PageNotRead(
      'content-type',
      `The page is ${mediaType}, which the reader cannot convert (it reads HTML, plain text, Markdown, JSON and PDF)`,
    )
  const charset = params
    .map((p) => p.trim().match(/^charset\s*=\s*"?([^";\s]+)"?$/i)?.[1])
    .find((value) => value !== undefined)
  return { mediaType, charset: charset?.toLowerCase() }
}

export function checkScheme(url: URL): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new PageNotRead('scheme', `Only http and https URLs can be read, not ${url.protocol.replace(/:$/, '')}`)
}

/** Schemes a caller may write without `//` (javascript:…, data:…): read as schemes, to be refused as such. */
const opaqueScheme = /^(javascript|data|mailto|file|about|blob|vbscript|tel|ftp|gopher|ws|wss|view-source):/i

/**
 * The URL a caller asked for. Without a scheme it is read as https; `https:/host` (a path whose `//` a
 * proxy collapsed) as `https://host`. The fragment never reaches the page's server, so it is dropped.
 */
export function targetUrl(raw: string): URL {
  let text = raw.trim().replace(/^(https?):\/(?!\/)/i, '$1://')
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && !opaqueScheme.test(text)) text = `https://${text}`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new PageNotRead('url', 'is not a valid URL')
  }
  checkScheme(url)
  if (!url.hostname) throw new PageNotRead('url', 'is not a valid URL: it names no host')
  url.hash = ''
  return url
}

export function describeSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MiB` : `${Math.round(bytes / 1024)} KiB`
}
