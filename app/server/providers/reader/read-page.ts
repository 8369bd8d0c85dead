import { readerLimits, type Engine, type ReaderPage } from '~/contracts/reader'
import type { ServerEnv } from '../../env'
import { isPublicAddress } from './address-policy'
import type { BrowserPool } from './browser/chromium'
import { renderPage, type RenderOptions } from './browser/render'
import type { ConversionRequest, ConvertOptions } from './convert/convert'
import { convertOffThread } from './convert-pool/convert-off-thread'
import { pageFetcher, type FetchLimits, type Outgoing } from './fetcher'
import { autoEngine } from './auto-engine'
import { pageKindOf, readableMediaType } from './page-rules'
import type { ProxySetting } from './proxy-url'

export type { ConvertOptions }

/** How often a page still downloading is converted again for a streaming caller. */
export const SNAPSHOT_INTERVAL_MS = 250

/** Everything a read depends on besides the URL and its limits. */
export interface ReadRequest {
  convert: ConvertOptions
  engine: Engine
  render: RenderOptions
  /** Headers the caller asked the page's server to see (user agent, locale, referer, cookies, DNT). */
  outgoing: Outgoing
  /** Links and images made absolute against the URL asked for rather than where redirects ended (`X-Base: initial`). */
  baseInitial?: boolean
  /** The caller's proxy (`X-Proxy-Url`), for every request of the read, the browser's included. */
  proxy?: ProxySetting
  /**
   * Whose browser time a render is (`key:<id>`, or `address:<network>` without a key): the browser engine's
   * slots are shared fairly between callers (`./browser/slots.ts`). Not part of what is answered.
   */
  caller?: string
  /** The browser seconds a minute that caller may use (its key tier's, `readerBrowserSeconds` in app.config). */
  browserSeconds?: number
}

export interface PageResult {
  page: ReaderPage
  engine: 'direct' | 'browser'
  screenshot?: Buffer
  pageshot?: Buffer
}

/** The fetch limits the environment sets: public addresses only unless READER_ALLOW_PRIVATE_NETWORKS=true. */
export function fetchLimitsOf(
  env: Pick<ServerEnv, 'READER_ALLOW_PRIVATE_NETWORKS' | 'READER_DNS_SERVERS'> &
    Partial<Pick<ServerEnv, 'PUBLIC_BASE_URL' | 'PUBLIC_API_BASE_URL'>>,
  timeoutSeconds: number,
  signal?: AbortSignal,
): FetchLimits {
  return {
    allows: env.READER_ALLOW_PRIVATE_NETWORKS ? () => true : isPublicAddress,
    ownOrigins: ownOriginsOf(env),
    dnsServers: env.READER_DNS_SERVERS,
    timeoutMs: timeoutSeconds * 1000,
    maxBytes: readerLimits.maxPageBytes,
    maxRedirects: readerLimits.maxRedirects,
    signal,
  }
}

/**
 * This site's own origins (PUBLIC_BASE_URL, PUBLIC_API_BASE_URL), which the reader may read wherever they are
 * served: the demo's default example reads the site's own pages, offline and on loopback too. A `localhost`
 * origin also counts as 127.0.0.1 and [::1] on the same port (where a browser on this machine may open it).
 */
function ownOriginsOf(env: Partial<Pick<ServerEnv, 'PUBLIC_BASE_URL' | 'PUBLIC_API_BASE_URL'>>): string[] {
  const origins = new Set<string>()
  for (const base of [env.PUBLIC_BASE_URL, env.PUBLIC_API_BASE_URL]) {
    if (!base) continue
    const url = new URL(base)
    origins.add(url.origin)
    if (url.hostname === 'localhost')
      for (const host of ['127.0.0.1', '[::1]'])
        origins.add(`${url.protocol}//${host}${url.port ? `:${url.port}` : ''}`)
  }
  return [...origins]
}

/** `<meta charset>` or its http-equiv form, in the first bytes of a page whose headers named no charset. */
function declaredCharset(head: Uint8Array): string | undefined {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 2048))
  return text.match(/<meta[^>]+charset\s*=\s*["']?([\w-]+)/i)?.[1]?.toLowerCase()
}

function decoderFor(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset ?? 'utf-8')
  } catch {
    // An unknown label: UTF-8 is what most such pages turn out to be.
    return new TextDecoder('utf-8')
  }
}

/**
 * Reads a page with the engine asked for: `direct` fetches and converts it; `browser` renders it in Chromium
 * first (and takes the screenshots asked for); `auto` (the default) fetches it directly and renders it only
 * when the page most likely writes its text with a script (`./convert/script-built.ts`), within the caller's
 * browser time (`./auto-engine.ts`). Screenshots always need the browser. `browser` gives the server's pool,
 * or throws the 501 refusal naming CHROMIUM_PATH.
 */
export async function readPage(
  url: URL,
  request: ReadRequest,
  limits: FetchLimits,
  browser: () => BrowserPool,
  onPartial?: (page: ReaderPage) => Promise<void>,
): Promise<PageResult> {
  const shots = request.render.screenshot || request.render.pageshot
  if (request.engine === 'browser' || shots) return renderAndConvert(url, request, limits, browser())
  if (request.engine === 'direct')
    return { page: withoutSigns(await fetchAndConvert(url, request, limits, onPartial)), engine: 'direct' }
  // Snapshots of the direct read go out only while they show text of their own; the browser's page follows.
  const partial =
    onPartial && (async (page: ReaderPage) => (page.scriptBuilt ? undefined : onPartial(withoutSigns(page))))
  const direct = await fetchAndConvert(url, request, limits, partial)
  return autoEngine(direct, browser, (pool) => renderAndConvert(url, request, limits, pool), limits.signal)
}

/** The page without the converter's signs, which are for choosing the engine, not for answering. */
export function withoutSigns(page: ReaderPage): ReaderPage {
  if (page.scriptBuilt === undefined) return page
  const { scriptBuilt: _, ...rest } = page
  return rest
}

async function renderAndConvert(
  url: URL,
  request: ReadRequest,
  limits: FetchLimits,
  pool: BrowserPool,
): Promise<PageResult> {
  const rendered = await renderPage(pool, url, request.render, limits, request.outgoing, request.caller, {
    secondsPerMinute: request.browserSeconds,
  })
  let page: ReaderPage
  if (rendered.html !== undefined) {
    const base = request.baseInitial ? url.href : rendered.url
    page = withoutSigns({
      ...(await convert({ source: rendered.html, kind: 'html', url: base, options: request.convert }, limits)),
      url: base,
    })
  } else {
    const resource = rendered.resource!
    const type = readableMediaType(resource.headers['content-type'])
    const kind = pageKindOf(type.mediaType)
    if (kind === 'pdf') return { page: await pdfPage(resource.body, rendered.url, request, limits), engine: 'browser' }
    const source = decoderFor(type.charset ?? (kind === 'html' ? declaredCharset(resource.body) : undefined)).decode(
      resource.body,
    )
    page = withoutSigns(await convert({ source, kind, url: rendered.url, options: request.convert }, limits))
  }
  return { page, engine: 'browser', screenshot: rendered.screenshot, pageshot: rendered.pageshot }
}

/**
 * A PDF as the reader answers it: its text as Markdown with the document's title and page count
 * (`./convert/pdf.ts`), parsed in a converter process within its limits, never on the event loop.
 */
export function pdfPage(
  bytes: Uint8Array,
  url: string,
  request: Pick<ReadRequest, 'convert'>,
  limits: Pick<FetchLimits, 'signal'>,
): Promise<ReaderPage> {
  return convert({ source: bytes, kind: 'pdf', url, options: request.convert }, limits)
}

const convert = (request: ConversionRequest, limits: Pick<FetchLimits, 'signal'>) =>
  convertOffThread(request, { signal: limits.signal })

/**
 * Fetches a page within `limits` and converts it in a converter process (never on the event loop), with its
 * output tokens. `onPartial`, when given, receives conversions of the page as downloaded so far (at most every
 * SNAPSHOT_INTERVAL_MS), each completer than the last, before the whole page is answered; it is awaited, so a
 * slow consumer (or a busy pool) slows the download rather than piling up snapshots.
 */
async function fetchAndConvert(
  url: URL,
  request: ReadRequest,
  limits: FetchLimits,
  onPartial?: (page: ReaderPage) => Promise<void>,
): Promise<ReaderPage> {
  const fetched = await (await pageFetcher())(url, limits, { ...request.outgoing, errorPages: true })
  const kind = pageKindOf(fetched.mediaType)
  // `URL Source` names the URL asked for unless X-Base: final, as the original's default `initial` does.
  const source = request.baseInitial ? url.href : fetched.url
  const warning = fetched.errorStatus && {
    warning: `Target URL returned error ${fetched.errorStatus.code}: ${fetched.errorStatus.reason}`,
  }
  if (kind === 'pdf') {
    const chunks: Uint8Array[] = []
    for await (const chunk of fetched.body) chunks.push(chunk)
    return { ...(await pdfPage(concat(chunks), source, request, limits)), ...warning }
  }
  const convertText = async (text: string) => ({
    ...(await convert({ source: text, kind, url: source, options: request.convert }, limits)),
    url: source,
    ...warning,
  })
  let decoder: TextDecoder | undefined
  let pending: Uint8Array[] = []
  let text = ''
  let lastSnapshot = Date.now()
  let snapshotLength = 0
  for await (const chunk of fetched.body) {
    if (!decoder) {
      pending.push(chunk)
      const head = concat(pending)
      if (head.byteLength < 1024) continue
      decoder = decoderFor(fetched.charset ?? (kind === 'html' ? declaredCharset(head) : undefined))
      text += decoder.decode(head, { stream: true })
      pending = []
    } else text += decoder.decode(chunk, { stream: true })
    if (
      onPartial &&
      kind === 'html' &&
      text.length > snapshotLength &&
      Date.now() - lastSnapshot >= SNAPSHOT_INTERVAL_MS
    ) {
      await onPartial(await convertText(text))
      snapshotLength = text.length
      lastSnapshot = Date.now()
    }
  }
  if (!decoder) {
    const head = concat(pending)
    decoder = decoderFor(fetched.charset ?? (kind === 'html' ? declaredCharset(head) : undefined))
    text += decoder.decode(head, { stream: true })
  }
  text += decoder.decode()
  return convertText(text)
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]
  const all = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.byteLength, 0))
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.byteLength
  }
  return all
}

/** A page the caller sent in the body rather than named: HTML or a PDF, converted without any fetch. */
export type GivenPage = { html: string } | { pdf: Uint8Array }

/** Converts a page the caller gave, as if it had been fetched from `url` (its links are made absolute against it). */
export async function convertGiven(
  given: GivenPage,
  url: string,
  request: Pick<ReadRequest, 'convert'>,
  limits: Pick<FetchLimits, 'signal'>,
): Promise<ReaderPage> {
  if ('pdf' in given) return pdfPage(given.pdf, url, request, limits)
  return convert({ source: given.html, kind: 'html', url, options: request.convert }, limits)
}
