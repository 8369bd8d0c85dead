import { marked, type Tokens } from 'marked'
import { codeInfo, docPages, documentedOrigins } from '#content/docs'
import { docsEntries } from '#content/docs-index'

/** A fenced block of a documentation page. */
export interface DocBlock {
  page: string
  /** Its place among the page's blocks, from 1, to name it in a failure. */
  position: number
  info: string
  language: string
  runnable: boolean
  answer: boolean
  code: string
}

/** Every fenced block of every page, in the index's reading order (the samples share one key, and spend it in that order). */
export function docBlocks(): DocBlock[] {
  return docsEntries.flatMap((entry) => {
    const body = docPages.find((page) => page.slug === entry.slug)?.body ?? ''
    return marked
      .lexer(body)
      .filter((token): token is Tokens.Code => token.type === 'code')
      .map((token, i) => ({
        page: entry.slug,
        position: i + 1,
        info: token.lang ?? '',
        code: token.text,
        ...codeInfo(token.lang ?? ''),
      }))
  })
}

/** A runnable sample and the answer block after it, which says what it must answer. */
export interface DocSample {
  name: string
  code: string
  answer?: DocBlock
}

export function docSamples(): DocSample[] {
  const blocks = docBlocks()
  return blocks
    .map((block, i) => ({ block, next: blocks[i + 1] }))
    .filter(({ block }) => block.runnable)
    .map(({ block, next }) => ({
      name: `${block.page} #${block.position}`,
      code: block.code,
      answer: next?.page === block.page && next.answer ? next : undefined,
    }))
}

export interface Origins {
  api: string
  site: string
}

/** The text with the documented origins swapped for a server's, as the site shows it. */
export function withOrigins(text: string, origins: Origins): string {
  return text.replaceAll(documentedOrigins.api, origins.api).replaceAll(documentedOrigins.site, origins.site)
}

/**
 * The sample as a test runs it: against `origins`, with the key from the environment. The one line that sets
 * the key's placeholder (`export API_KEY=lds_your_key_here`) keeps the environment's key instead.
 */
export function runnableScript(code: string, origins: Origins): string {
  return withOrigins(code, origins).replace(/^export API_KEY=.*$/m, 'export API_KEY')
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

const kind = (value: Json) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)

/**
 * Where `actual` departs from a documented JSON answer: every documented field must be there with a value of
 * the same type (a `null` on either side stands for "may be null"), arrays are compared by their first item, and
 * a `detail` sentence must be the same, but for `…` in it, which stands for anything.
 */
export function jsonMismatches(documented: Json, actual: Json, path = '$'): string[] {
  if (documented === null || actual === null) return []
  if (kind(documented) !== kind(actual))
    return [`${path}: documented a ${kind(documented)}, answered ${JSON.stringify(actual)}`]
  if (Array.isArray(documented)) {
    const items = actual as Json[]
    if (documented.length === 0) return []
    if (items.length === 0) return [`${path}: documented items, answered none`]
    return jsonMismatches(documented[0]!, items[0]!, `${path}[0]`)
  }
  if (typeof documented === 'object') {
    const object = actual as Record<string, Json>
    return Object.entries(documented).flatMap(([key, value]) =>
      key in object
        ? jsonMismatches(value, object[key]!, `${path}.${key}`)
        : [`${path}.${key}: missing from the answer`],
    )
  }
  if (path.endsWith('.detail') && typeof documented === 'string' && !wildcard(documented).test(actual as string))
    return [`${path}: documented "${documented}", answered "${String(actual)}"`]
  return []
}

/** A documented line as a pattern: `…` stands for anything, the rest is literal. */
const wildcard = (line: string) =>
  new RegExp(
    `^${line
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
    'is',
  )

/**
 * Where `actual` departs from a documented text answer: each documented line must be a line of the answer, in
 * order, `…` standing for anything within a line; a line that is only `…` stands for any lines.
 */
export function textMismatches(documented: string, actual: string): string[] {
  const lines = actual.split('\n').map((line) => line.replace(/\r$/, ''))
  let at = 0
  for (const line of documented.split('\n')) {
    if (line.trim() === '…') continue
    const pattern = wildcard(line)
    const found = lines.findIndex((candidate, i) => i >= at && pattern.test(candidate))
    if (found === -1) return [`no line "${line}" after line ${at} of the answer:\n${actual.slice(0, 2000)}`]
    at = found + 1
  }
  return []
}

/** What a sample's answer must be: the documented JSON or text, with the documented origins as `origins`. */
export function answerMismatches(answer: DocBlock, actual: string, origins: Origins): string[] {
  const documented = withOrigins(answer.code, origins)
  if (answer.language !== 'json') return textMismatches(documented, actual)
  let parsed: Json
  try {
    parsed = JSON.parse(actual) as Json
  } catch {
    // JSON lines (a bulk result): the first line is the answer's shape.
    try {
      parsed = JSON.parse(actual.split('\n')[0] ?? '') as Json
    } catch {
      return [`not JSON: ${actual.slice(0, 500)}`]
    }
  }
  return jsonMismatches(JSON.parse(documented) as Json, parsed)
}
