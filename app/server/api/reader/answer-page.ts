import type { ReaderAnswerPage, ReaderHeaders, ReaderPage, ReturnFormat, ReturnFormats } from '~/contracts/reader'
import { markdownChunks } from '../../providers/reader/convert/chunks'

/** One text format of the page as it was read. */
export interface FormatRead {
  format: ReturnFormat
  page: ReaderPage
}

/**
 * Tokens a screenshot or pageshot is charged, each: an image has no output tokens, and rendering it is the
 * costliest thing the reader does (README, "Reader": metering).
 */
export const SHOT_TOKENS = 1000

/** The field of the answer each text format is answered in, as the original names them. */
const fieldOf: Record<ReturnFormat, 'content' | 'html' | 'text'> = {
  content: 'content',
  markdown: 'content',
  html: 'html',
  text: 'text',
}

/**
 * The page in the original's answer shape: each text format asked for in its own field (`content`, `html`,
 * `text`), the screenshots' links, `numPages` for a PDF, and the summaries, the engine and the chunks only when
 * asked for. Its tokens are every format's output tokens and each image's SHOT_TOKENS.
 */
export function answerPageOf(
  reads: FormatRead[],
  formats: ReturnFormats,
  headers: Pick<ReaderHeaders, 'x-with-links-summary' | 'x-with-images-summary' | 'x-engine' | 'x-markdown-chunking'>,
  shots: { screenshotUrl?: string; pageshotUrl?: string } = {},
): ReaderAnswerPage {
  const first = reads[0].page
  const page: ReaderAnswerPage = {
    title: first.title,
    description: first.description,
    url: first.url,
    usage: { tokens: 0 },
  }
  if (first.publishedTime) page.publishedTime = first.publishedTime
  if (first.warning) page.warning = first.warning
  let tokens = 0
  if (formats.textNamed)
    for (const { format, page: read } of reads) {
      page[fieldOf[format]] = read.content
      tokens += read.usage.tokens
    }
  if (headers['x-with-links-summary']) page.links = first.links
  if (headers['x-with-images-summary']) page.images = first.images
  if (shots.screenshotUrl) page.screenshotUrl = shots.screenshotUrl
  if (shots.pageshotUrl) page.pageshotUrl = shots.pageshotUrl
  if (first.pages !== undefined) page.numPages = first.pages
  if (headers['x-engine'] && first.engine) page.engine = first.engine
  const chunking = headers['x-markdown-chunking']
  if (chunking !== undefined && page.content !== undefined) page.chunks = markdownChunks(page.content, chunking)
  const shotCount = Number(Boolean(shots.screenshotUrl)) + Number(Boolean(shots.pageshotUrl))
  page.usage = { tokens: tokens + shotCount * SHOT_TOKENS }
  return page
}
