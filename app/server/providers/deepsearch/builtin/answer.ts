import type { UrlCitation } from '~/contracts/deepsearch'
import { bm25Scores } from '../../inference/builtin/bm25'
import type { AgentTools, ReadPage } from '../engine'
import { sentencesOf, type Passage } from '../passages'

export interface Evidence {
  page: ReadPage
  passage: Passage
  /** Relevance to the question in [0, 1]. */
  score: number
}

/** A quote shorter than this reads better with the sentence after it. */
const SHORT_QUOTE = 90

export const NO_ANSWER =
  'I could not find an answer to this question in the pages I read. Try other words, or put the URL of a page that answers it in the question.'

/** The sentence of a passage that best answers the question (with the next one when it is short), exactly as the page has it. */
export function bestQuote(question: string, evidence: Pick<Evidence, 'page' | 'passage'>): string {
  const { passage, page } = evidence
  const sentences = sentencesOf(passage.text, passage.start)
  if (sentences.length <= 1) return passage.text
  const scores = bm25Scores(
    question,
    sentences.map((s) => s.text),
  )
  const best = scores.indexOf(Math.max(...scores))
  const first = sentences[best]
  const next = sentences[best + 1]
  const end = first.text.length < SHORT_QUOTE && next ? next.end : first.end
  return page.content.slice(first.start, end)
}

/**
 * An extractive answer: the best quote of each of the most relevant sources (one per page, best first),
 * each followed by its `[^n]` marker, and the citations those markers point to.
 */
export function composeAnswer(
  question: string,
  evidence: Evidence[],
  options: { maxCitations: number; readAt: string },
): { paragraphs: string[]; citations: UrlCitation[] } {
  const chosen: Evidence[] = []
  for (const item of [...evidence].sort((a, b) => b.score - a.score)) {
    if (chosen.length >= options.maxCitations) break
    if (!chosen.some((other) => other.page === item.page)) chosen.push(item)
  }
  if (chosen.length === 0) return { paragraphs: [NO_ANSWER], citations: [] }
  const citations = chosen.map((item) => ({
    title: item.page.title || item.page.url,
    exactQuote: bestQuote(question, item),
    url: item.page.url,
    dateTime: item.page.publishedTime ?? options.readAt,
  }))
  return { paragraphs: citations.map((citation, i) => `${citation.exactQuote} [^${i + 1}]`), citations }
}

/** Writes the extractive answer through the tools (paragraph by paragraph) and answers its citations. */
export async function writeExtractiveAnswer(
  question: string,
  evidence: Evidence[],
  maxCitations: number,
  tools: Pick<AgentTools, 'write'>,
): Promise<UrlCitation[]> {
  const { paragraphs, citations } = composeAnswer(question, evidence, {
    maxCitations,
    readAt: new Date().toISOString(),
  })
  for (const [i, paragraph] of paragraphs.entries()) await tools.write(i === 0 ? paragraph : `\n\n${paragraph}`)
  return citations
}
