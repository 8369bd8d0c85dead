/** A stretch of a page's text the agent can rank and quote; `text` is exactly `page.content.slice(start, end)`. */
export interface Passage {
  url: string
  text: string
  start: number
  end: number
}

/** Longest passage, in characters: longer paragraphs are cut at sentence ends. */
const MAX_PASSAGE = 700

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' })

/** The sentences of a text with their positions, without surrounding white space. */
export function sentencesOf(text: string, offset = 0): Array<{ text: string; start: number; end: number }> {
  const out: Array<{ text: string; start: number; end: number }> = []
  for (const { segment, index } of sentences.segment(text)) {
    const lead = segment.length - segment.trimStart().length
    const trimmed = segment.trim()
    if (trimmed) out.push({ text: trimmed, start: offset + index + lead, end: offset + index + lead + trimmed.length })
  }
  return out
}

/** Paragraphs of a page (blank-line separated), long ones cut into runs of sentences of at most MAX_PASSAGE. */
export function passagesOf(url: string, content: string): Passage[] {
  const passages: Passage[] = []
  const paragraph = /[^\n]+(?:\n(?!\s*\n)[^\n]*)*/g
  for (const match of content.matchAll(paragraph)) {
    const text = match[0].trim()
    if (text.length < 20) continue
    const start = match.index + match[0].indexOf(text)
    if (text.length <= MAX_PASSAGE) {
      passages.push({ url, text, start, end: start + text.length })
      continue
    }
    let run: { start: number; end: number } | undefined
    for (const sentence of sentencesOf(text, start)) {
      if (run && sentence.end - run.start > MAX_PASSAGE) {
        passages.push({ url, text: content.slice(run.start, run.end), ...run })
        run = undefined
      }
      run = run ? { start: run.start, end: sentence.end } : { start: sentence.start, end: sentence.end }
    }
    if (run) passages.push({ url, text: content.slice(run.start, run.end), ...run })
  }
  return passages
}
