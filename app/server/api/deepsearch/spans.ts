import type { AnnotatedCitation, UrlCitation } from '~/contracts/deepsearch'
import { sentencesOf } from '../../providers/deepsearch/passages'

/**
 * Where the answer's text cites each source, as OpenAI's `url_citation` gives it: from the start of what the
 * citation's `[^n]` marker (its first one) vouches for to the end of the marker. That is the quote itself when
 * the marker follows it (the built-in engine's extractive answer), else the sentence the marker is in (a
 * chat model's answer). A citation whose marker is missing spans the whole text. `offset` is where the
 * answer's text starts in the content the indices point into (after the `<think>` part, when it is there).
 */
export function annotateCitations(text: string, citations: UrlCitation[], offset = 0): AnnotatedCitation[] {
  const sentences = sentencesOf(text)
  const spanStart = (at: number, { exactQuote }: UrlCitation): number => {
    const before = text.slice(0, at).trimEnd()
    if (exactQuote && before.endsWith(exactQuote)) return before.length - exactQuote.length
    // The last sentence starting before the marker (one after a full stop is a "sentence" of its own).
    return sentences.findLast((sentence) => sentence.start < at)?.start ?? 0
  }
  return citations.map((citation, i) => {
    const marker = `[^${i + 1}]`
    const at = text.indexOf(marker)
    const span =
      at < 0 ? { start: 0, end: text.trimEnd().length } : { start: spanStart(at, citation), end: at + marker.length }
    return {
      url: citation.url,
      title: citation.title,
      start_index: offset + span.start,
      end_index: offset + span.end,
      exactQuote: citation.exactQuote,
      dateTime: citation.dateTime,
    }
  })
}
