import { ApiError } from '~/lib/api-error'
import { streamEvents } from '~/lib/event-stream/request'
import type { ReaderFormat, ReaderValues } from './reader-examples'

export interface ReaderBody {
  url: string
}

/** One event of the reader's stream, as the demo shows it. */
export interface ReaderSnapshot {
  title: string
  url: string
  content: string
  publishedTime?: string
  links: Record<string, string>
  images: Record<string, string>
  usage: { tokens: number }
  /** How many snapshots arrived so far, this one included. */
  count: number
}

export function readerRequest(values: ReaderValues): ReaderBody {
  return { url: values.url.trim() }
}

/** The headers the form stands for: the stream, and each option that differs from the reader's default. */
export function readerHeaders(values: { format: ReaderFormat; links: boolean; images: boolean; noCache: boolean }) {
  return {
    Accept: 'text/event-stream',
    ...(values.format !== 'content' && { 'X-Return-Format': values.format }),
    ...(values.links && { 'X-With-Links-Summary': 'true' }),
    ...(values.images && { 'X-With-Images-Summary': 'true' }),
    ...(values.noCache && { 'X-No-Cache': 'true' }),
  }
}

const isRecordOfStrings = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && Object.values(value).every((item) => typeof item === 'string')

/** A snapshot checked against the reader's wire contract, so a malformed one is an error rather than a blank panel. */
function snapshotOf(data: string, count: number): ReaderSnapshot {
  let page: Record<string, unknown> | undefined
  try {
    page = JSON.parse(data) as Record<string, unknown>
  } catch {
    page = undefined
  }
  const usage = page?.usage as { tokens?: unknown } | undefined
  if (
    !page ||
    typeof page.title !== 'string' ||
    typeof page.url !== 'string' ||
    typeof page.content !== 'string' ||
    typeof usage?.tokens !== 'number' ||
    !isRecordOfStrings(page.links) ||
    !isRecordOfStrings(page.images)
  )
    throw new ApiError(200, 'unexpected answer (not a reader snapshot)', { code: 'internal' })
  return {
    title: page.title,
    url: page.url,
    content: page.content,
    publishedTime: typeof page.publishedTime === 'string' ? page.publishedTime : undefined,
    links: page.links,
    images: page.images,
    usage: { tokens: usage.tokens },
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
  const events = streamEvents('/r', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
    apiKey,
    signal,
  })
  for await (const event of events) {
    last = snapshotOf(event.data, (last?.count ?? 0) + 1)
    update(last)
  }
  if (!last) throw new ApiError(200, 'the stream ended without a page', { code: 'internal' })
  return last
}
