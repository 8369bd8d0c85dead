/**
 * Splits text into chunks of at most `maxLength` UTF-16 code units (JavaScript string length), each as
 * large as it can be while ending at the best boundary the limit allows: a paragraph break (a blank line)
 * if there is one, else a sentence end (`.`, `!` or `?`, with any closing quotes or brackets, before white
 * space; or `。`, `！`, `？`), else white space, else a hard cut, which never falls between the two halves
 * of a surrogate pair.
 *
 * The chunks tile the text: the white space at a break ends the chunk before it, so the chunks joined are
 * the text and each chunk starts with what follows the break. When a run of white space is longer than
 * the room left, the cut falls inside it and the next chunk starts with the rest of it.
 *
 * The one exception to the limit: with `maxLength` 1, a character outside the BMP (two code units) is a
 * chunk of 2, since a chunk must hold at least one whole character.
 */

/** Places where a chunk may end: a chunk may end anywhere in [from[i], to[i]], preferably at to[i]. */
interface Breaks {
  from: number[]
  to: number[]
}

const lineBreak = /\r\n|\r|\n|\u2028/g

function isParagraphBreak(whitespace: string): boolean {
  return whitespace.includes('\u2029') || (whitespace.match(lineBreak)?.length ?? 0) >= 2
}

/** End of the white space run that starts at `index` (or `index` when there is none). */
function whitespaceEnd(text: string, index: number, end: number): number {
  const run = /\s*/y
  run.lastIndex = index
  run.exec(text)
  return Math.min(run.lastIndex, end)
}

function findBreaks(text: string, start: number, end: number): { paragraph: Breaks; sentence: Breaks; space: Breaks } {
  const paragraph: Breaks = { from: [], to: [] }
  const sentence: Breaks = { from: [], to: [] }
  const space: Breaks = { from: [], to: [] }

  const whitespace = /\s+/g
  whitespace.lastIndex = start
  for (let match = whitespace.exec(text); match && match.index < end; match = whitespace.exec(text)) {
    const to = Math.min(match.index + match[0].length, end)
    space.from.push(match.index)
    space.to.push(to)
    if (isParagraphBreak(match[0])) {
      paragraph.from.push(match.index)
      paragraph.to.push(to)
    }
  }

  // A run of end marks is matched whole and then checked for the white space after it: a lookahead inside
  // the pattern would retry the run from each of its marks (quadratic on 100,000 "!": minutes).
  const sentenceEnd = /[.!?][.!?"'”’)\]»]*|[。！？][。！？」』）〕】"'”’]*/g
  sentenceEnd.lastIndex = start
  for (let match = sentenceEnd.exec(text); match && match.index < end; match = sentenceEnd.exec(text)) {
    const runEnd = match.index + match[0].length
    if (!'。！？'.includes(match[0][0]) && !/\s/.test(text.charAt(runEnd))) continue
    const after = Math.min(runEnd, end)
    sentence.from.push(after)
    sentence.to.push(whitespaceEnd(text, after, end))
  }
  return { paragraph, sentence, space }
}

/** The best end for a chunk starting at `start` and ending by `limit` at one of `breaks`, or -1. */
function lastBreak(breaks: Breaks, start: number, limit: number): number {
  // The last break that begins by the limit (binary search: `from` is ascending).
  let low = 0
  let high = breaks.from.length - 1
  let found = -1
  while (low <= high) {
    const middle = (low + high) >> 1
    if (breaks.from[middle] <= limit) {
      found = middle
      low = middle + 1
    } else high = middle - 1
  }
  // A break at the chunk's very start would make an empty chunk; earlier breaks are further back still.
  if (found < 0 || breaks.from[found] <= start) return -1
  return Math.min(breaks.to[found], limit)
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

function hardCut(text: string, start: number, limit: number): number {
  const splitsPair = isHighSurrogate(text.charCodeAt(limit - 1)) && isLowSurrogate(text.charCodeAt(limit))
  if (!splitsPair) return limit
  return limit - 1 > start ? limit - 1 : limit + 1
}

/** Chunks of `text[start, end)` as [start, end) positions in `text`. */
export function chunkText(text: string, maxLength: number, start = 0, end = text.length): [number, number][] {
  if (!Number.isInteger(maxLength) || maxLength < 1) throw new Error(`maxLength must be a whole number ≥ 1`)
  if (!(0 <= start && start <= end && end <= text.length)) throw new Error('the range is outside the text')
  const breaks = findBreaks(text, start, end)
  const chunks: [number, number][] = []
  for (let from = start; from < end;) {
    const limit = from + maxLength
    let to = end
    if (limit < end) {
      to = lastBreak(breaks.paragraph, from, limit)
      if (to < 0) to = lastBreak(breaks.sentence, from, limit)
      if (to < 0) to = lastBreak(breaks.space, from, limit)
      if (to < 0) to = hardCut(text, from, limit)
    }
    chunks.push([from, to])
    from = to
  }
  return chunks
}
