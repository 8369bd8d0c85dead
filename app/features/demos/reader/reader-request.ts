import { ApiError } from '~/lib/api-error'
import { streamEvents } from '~/lib/event-stream/request'
import type { ReaderEngine, ReaderFormat, ReaderValues } from './reader-examples'

export interface ReaderBody {
  url: string
}

/** One event of the reader's stream, as the demo shows it. */
export interface ReaderSnapshot {
  title: string
  url: string
  content: string
  publishedTime?: string
  links: Record<string, string> | Array<[string, string]>
  images: Record<string, string>
  usage: { tokens: number }
  /** A signed link to the first screen as PNG, when a screenshot was asked for. */
  screenshotUrl?: string
  /** Which engine read the page. */
  engine?: 'direct' | 'browser'
  /** The text format asked for (`content`, `markdown`, `text`, `html`). */
  format: ReaderFormat
  /** The snapshot as it arrived, for the JSON view. */
  json: unknown
  /** How many snapshots arrived so far, this one included. */
  count: number
}

export function readerRequest(values: ReaderValues): ReaderBody {
  return { url: values.url.trim() }
}

/** The headers the form stands for: the stream, and each option that differs from the reader's default. */
export function readerHeaders(values: {
  format: ReaderFormat
  engine: ReaderEngine
  links: boolean
  images: boolean
  screenshot: boolean
  noCache: boolean
}) {
  const formats = [
    values.format !== 'content' || values.screenshot ? values.format : '',
    values.screenshot ? 'screenshot' : '',
  ]
  const returnFormat = formats.filter(Boolean).join(',')
  return {
    Accept: 'text/event-stream',
    ...(returnFormat && { 'X-Return-Format': returnFormat }),
    // Named always: the answer then says which engine read the page (`engine`), as the original answers it.
    'X-Engine': values.engine,
    ...(values.links && { 'X-With-Links-Summary': 'true' }),
    ...(values.images && { 'X-With-Images-Summary': 'true' }),
    ...(values.noCache && { 'X-No-Cache': 'true' }),
  }
}

const isRecordOfStrings = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && Object.values(value).every((item) => typeof item === 'string')
/** `X-With-Links-Summary: all` answers `[text, url]` pairs rather than a map. */
const isLinks = (value: unknown): value is ReaderSnapshot['links'] =>
  Array.isArray(value)
    ? value.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every((item) => typeof item === 'string'))
    : isRecordOfStrings(value)

/** A snapshot checked against the reader's wire contract, so a malformed one is an error rather than a blank panel. */
function snapshotOf(data: string, count: number, format: ReaderFormat): ReaderSnapshot {
  let page: Record<string, unknown> | undefined
  try {
    page = JSON.parse(data) as Record<string, unknown>
  } catch {
    page = undefined
  }
  const usage = page?.usage as { tokens?: unknown } | undefined
  // Each format in its own field, as the original answers it; the summaries only when asked for.
  const content = page && (page.content ?? page.html ?? page.text ?? '')
  const links = page?.links ?? {}
  const images = page?.images ?? {}
  if (
    !page ||
    typeof page.title !== 'string' ||
    typeof page.url !== 'string' ||
    typeof content !== 'string' ||
    typeof usage?.tokens !== 'number' ||
    !isLinks(links) ||
    !isRecordOfStrings(images)
  )
    throw new ApiError(200, 'unexpected answer (not a reader snapshot)', { code: 'internal' })
  return {
    title: page.title,
    url: page.url,
    content,
    publishedTime: typeof page.publishedTime === 'string' ? page.publishedTime : undefined,
    links,
    images,
    usage: { tokens: usage.tokens },
    screenshotUrl: typeof page.screenshotUrl === 'string' ? page.screenshotUrl : undefined,
    engine: page.engine === 'browser' || page.engine === 'direct' ? page.engine : undefined,
    format,
    json: page,
    count,
  }
}

/** Reads the page as an event stream, showing each snapshot as it comes; the last one is the whole page. */
export async function readStream(
  body: ReaderBody,
  headers: Record<string, string>,
  apiKey: string | null,
  update: (snapshot: ReaderSnapshot) => void,
  signal: AbortSignal,
): Promise<ReaderSnapshot> {
  let last: ReaderSnapshot | undefined
  const asked = (headers['X-Return-Format'] ?? '').split(',')[0]
  const format: ReaderFormat = asked === 'markdown' || asked === 'text' || asked === 'html' ? asked : 'content'
  const events = streamEvents('/r', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
    apiKey,
    signal,
  })
  for await (const event of events) {
    last = snapshotOf(event.data, (last?.count ?? 0) + 1, format)
    update(last)
  }
  if (!last) throw new ApiError(200, 'the stream ended without a page', { code: 'internal' })
  return last
}
