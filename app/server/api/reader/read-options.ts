import {
  modelFormats,
  returnFormats,
  type ReaderHeaders,
  type ReaderViewport,
  type ReturnFormat,
  type ReturnFormats,
} from '~/contracts/reader'
import { PageNotRead } from '../../domain/refusals'
import type { ServerEnv } from '../../env'
import type { MarkdownOptions } from '../../providers/reader/convert/markdown'
import { parseProxyUrl } from '../../providers/reader/proxy-url'
import type { ReadRequest } from '../../providers/reader/read-page'

/** What a POST body adds to the headers (the original's fields). */
export interface BodyOptions {
  viewport?: ReaderViewport
  injectPageScript?: string
}

/** The formats asked for; a model's format is refused with 422, as this server runs none. */
export function returnFormatsOf(headers: Pick<ReaderHeaders, 'x-return-format' | 'x-respond-with'>): ReturnFormats {
  const named = headers['x-respond-with'] ?? headers['x-return-format'] ?? []
  const model = named.find((format) => (modelFormats as readonly string[]).includes(format))
  if (model)
    throw new PageNotRead(
      'option',
      `The ${model} format needs a language model, and this server has none configured for the reader`,
    )
  const texts = [...new Set(named.filter((format) => (returnFormats as readonly string[]).includes(format)))]
  const text = texts[0] as ReturnFormat | undefined
  return {
    text: text ?? 'content',
    texts: texts.length ? (texts as ReturnFormat[]) : ['content'],
    textNamed: text !== undefined || named.length === 0,
    screenshot: named.includes('screenshot'),
    pageshot: named.includes('pageshot'),
  }
}

/** `name=value` pairs of X-Set-Cookie (several comma-separated); each cookie's attributes are dropped. */
export function cookiesOf(header: string | undefined): Array<{ name: string; value: string }> {
  if (!header) return []
  return header
    .split(/,\s*(?=[^;,=\s]+=)/)
    .map((cookie) => cookie.split(';')[0].trim())
    .map((pair) => {
      const at = pair.indexOf('=')
      return { name: pair.slice(0, at).trim(), value: pair.slice(at + 1).trim() }
    })
    .filter(({ name }) => name.length > 0 && !/[\s;,=]/.test(name))
}

/** Everything the caller asked of this read, from the headers and (for POST) the body. */
export function readRequestOf(
  headers: ReaderHeaders,
  env: Pick<ServerEnv, 'READER_ALLOW_PAGE_SCRIPTS'>,
  body: BodyOptions = {},
): ReadRequest & { formats: ReturnFormats } {
  const formats = returnFormatsOf(headers)
  if (headers['x-proxy'])
    throw new PageNotRead(
      'option',
      'X-Proxy picks a proxy from a pool this server does not have: name your own with X-Proxy-Url (http, https or socks5)',
    )
  const proxy = headers['x-proxy-url'] ? parseProxyUrl(headers['x-proxy-url']) : undefined
  if (headers['x-with-generated-alt'])
    throw new PageNotRead(
      'option',
      'X-With-Generated-Alt needs a vision model, and this server has none configured for the reader',
    )
  if (body.injectPageScript && !env.READER_ALLOW_PAGE_SCRIPTS)
    throw new PageNotRead(
      'option',
      'injectPageScript is off on this server (READER_ALLOW_PAGE_SCRIPTS=true turns it on)',
    )
  const cookies = cookiesOf(headers['x-set-cookie'])
  const outgoing: Record<string, string> = {}
  if (headers['x-user-agent']) outgoing['user-agent'] = headers['x-user-agent']
  if (headers['x-locale']) outgoing['accept-language'] = `${headers['x-locale']}, *;q=0.5`
  if (headers['x-referer']) outgoing.referer = headers['x-referer']
  if (headers.dnt) outgoing.dnt = '1'
  if (cookies.length) outgoing.cookie = cookies.map(({ name, value }) => `${name}=${value}`).join('; ')
  const browserOnly = [
    headers['x-wait-for-selector'] && 'X-Wait-For-Selector',
    headers['x-with-iframe'] && 'X-With-Iframe',
    headers['x-with-shadow-dom'] && 'X-With-Shadow-Dom',
    headers['x-respond-timing'] && 'X-Respond-Timing',
    body.viewport && 'viewport',
    body.injectPageScript && 'injectPageScript',
  ].filter((name): name is string => Boolean(name))
  if (headers['x-engine'] === 'direct' && browserOnly.length)
    throw new PageNotRead('option', `${browserOnly.join(', ')} needs the browser engine, not X-Engine: direct`)
  return {
    formats,
    // Options only a browser can honour choose it when the caller named no engine; otherwise the original's
    // default, the browser when the page needs it (`auto`, within the caller's browser time).
    engine: headers['x-engine'] ?? (browserOnly.length ? 'browser' : 'auto'),
    convert: {
      format: formats.text,
      targetSelector: headers['x-target-selector'],
      removeSelector: headers['x-remove-selector'],
      withLinks: headers['x-with-links-summary'],
      withImages: headers['x-with-images-summary'],
      keepImageDataUrls: headers['x-keep-img-data-url'],
      maxTokens: headers['x-max-output-tokens'] ?? headers['x-max-tokens'],
      markdown: markdownOptionsOf(headers),
      ...(headers['x-remove-overlay'] && { removeOverlay: true }),
    },
    // The original's default: links against the URL asked for, which `URL Source` names too.
    baseInitial: headers['x-base'] !== 'final',
    render: {
      waitForSelector: headers['x-wait-for-selector'],
      targetSelector: headers['x-target-selector'],
      timing: headers['x-respond-timing'],
      locale: headers['x-locale'],
      userAgent: headers['x-user-agent'],
      referer: headers['x-referer'],
      cookies,
      withIframes: headers['x-with-iframe'],
      withShadowDom: headers['x-with-shadow-dom'],
      viewport: body.viewport,
      pageScript: body.injectPageScript,
      screenshot: formats.screenshot,
      pageshot: formats.pageshot,
    },
    outgoing: { headers: outgoing },
    proxy,
  }
}

/** Turndown's options as the `X-Md-*`, `X-No-Gfm` and `X-Retain-Images` headers set them (unset: the defaults). */
function markdownOptionsOf(headers: ReaderHeaders): MarkdownOptions | undefined {
  const options: MarkdownOptions = {
    retainImages: headers['x-retain-images'],
    gfm: headers['x-no-gfm'] === 'true' ? 'none' : headers['x-no-gfm'] === 'table' ? 'no-tables' : undefined,
    headingStyle: headers['x-md-heading-style'],
    hr: headers['x-md-hr'],
    bulletListMarker: headers['x-md-bullet-list-marker'] as MarkdownOptions['bulletListMarker'],
    emDelimiter: headers['x-md-em-delimiter'] as MarkdownOptions['emDelimiter'],
    strongDelimiter: headers['x-md-strong-delimiter'] as MarkdownOptions['strongDelimiter'],
    linkStyle: headers['x-md-link-style'],
    linkReferenceStyle: headers['x-md-link-reference-style'],
    retainLinks: headers['x-retain-links'] === 'all' ? undefined : headers['x-retain-links'],
  }
  const set = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined))
  // Unset, the options stay out of the request, so the cache key of a plain read is what it was.
  return Object.keys(set).length ? (set as MarkdownOptions) : undefined
}
