import type { RerankEngine } from '../../inference/engines'
import type { AgentQuestion, AgentResult, AgentTools, DeepSearchEngine } from '../engine'
import { Reading } from '../reading'
import { writeExtractiveAnswer, type Evidence } from './answer'
import type { BuiltinSearch } from '../../search/builtin/site-search'
import { hostAllowed, hostBoost } from '../hosts'
import { keyTermsOf, uncovered } from './key-terms'

/** Pages a search round opens at most. */
const READS_PER_SEARCH = 4

export const quoteList = (items: string[]) => items.map((item) => `“${item}”`).join(', ')
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * The built-in agent: a real search → read → reason loop over this site's pages (and any pages named in
 * the question, read through the reader). Each round searches, reads the best new pages while the budget
 * allows, ranks their passages against the question with the built-in reranker and checks which of the
 * question's terms the evidence covers; the next round searches for what is missing. It answers
 * extractively, quoting the passages it cites.
 */
export function createBuiltinAgent(options: { search: BuiltinSearch; reranker: RerankEngine }): DeepSearchEngine {
  return {
    kind: 'builtin',
    async run(request: AgentQuestion, tools: AgentTools): Promise<AgentResult> {
      const reading = new Reading(request, tools)
      const keyTerms = keyTermsOf(request.question)
      await tools.think({
        text: keyTerms.length
          ? `The question is about ${quoteList(keyTerms)}. I will look for pages that cover each of them.`
          : 'The question names nothing specific; I will search with its words as they are.',
      })
      await reading.readNamedUrls()

      let evidence: Evidence[] = []
      let query = keyTerms.join(' ') || request.question
      for (let attempt = 1; attempt <= request.maxAttempts; attempt++) {
        tools.signal.throwIfAborted()
        await tools.think({ text: `Searching this site for “${query}”.`, query })
        const hits = (
          await options.search.hits(query, {
            limit: READS_PER_SEARCH * 2,
            allowed: (page) => hostAllowed(page.url, request.hosts),
            boost: (page) => hostBoost(page.url, request.hosts),
          })
        ).filter((hit) => !reading.has(hit.page))
        for (const hit of hits) reading.visited.add(hit.page.url)
        await tools.think({
          text: hits.length
            ? `${count(hits.length, 'new page matches', 'new pages match')}: ${quoteList(hits.map((hit) => hit.page.title))}.`
            : 'No new page matches.',
        })
        let budgetSpent = false
        for (const hit of hits.slice(0, READS_PER_SEARCH))
          if (!(await reading.open(hit.page, `Reading “${hit.page.title}”.`))) {
            budgetSpent = true
            break
          }

        evidence = await reading.evidence(options.reranker)
        const missing = uncovered(
          keyTerms,
          evidence.map((item) => item.passage.text),
        )
        const sources = new Set(evidence.map((item) => item.page)).size
        await tools.think({
          text: evidence.length
            ? `${count(evidence.length, 'relevant passage', 'relevant passages')} from ${count(sources, 'page', 'pages')} so far.`
            : 'Nothing I read answers the question yet.',
        })
        if (budgetSpent) {
          await tools.think({ text: 'The token budget is nearly spent, so I stop reading and answer.' })
          break
        }
        if (missing.length === 0 && evidence.length > 0) {
          await tools.think({ text: 'The passages cover every part of the question.' })
          break
        }
        if (hits.length === 0 && attempt > 1) break
        if (attempt < request.maxAttempts) {
          await tools.think({ text: `Still uncovered: ${quoteList(missing)}. Searching for that next.` })
          query = missing.join(' ') || request.question
        }
      }

      await tools.think({
        text: evidence.length
          ? 'Answering with the passages that match the question best, quoted as the pages have them.'
          : 'I have no passage that answers the question.',
      })
      const citations = await writeExtractiveAnswer(request.question, evidence, request.maxCitations, tools)
      return { citations, visitedURLs: [...reading.visited], readURLs: reading.readURLs }
    },
  }
}
