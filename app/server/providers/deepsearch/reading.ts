import { PageNotRead } from '../../domain/refusals'
import type { RerankEngine } from '../inference/engines'
import { countTokens } from '../inference/tokens'
import type { Evidence } from './builtin/answer'
import type { AgentQuestion, AgentTools, ReadPage } from './engine'
import { hostAllowed, hostBoost, urlsIn } from './hosts'
import { passagesOf } from './passages'

/** A passage scoring at least this (the reranker's [0, 1]) counts as evidence. */
export const RELEVANT = 0.3
/** URLs written in the question that are read at most. */
const QUESTION_URLS = 5

/** What an agent has come across and read so far, and the reading itself (metered through the tools). */
export class Reading {
  readonly visited = new Set<string>()
  readonly pages: ReadPage[] = []
  private readonly readUrls = new Set<string>()

  constructor(
    private readonly request: AgentQuestion,
    private readonly tools: AgentTools,
  ) {}

  get readURLs(): string[] {
    return [...this.readUrls]
  }

  has(page: ReadPage): boolean {
    return this.pages.includes(page) || this.readUrls.has(page.url)
  }

  /** Takes a page in if the budget allows (false: it did not), saying why in a think step. */
  async open(page: ReadPage, why: string): Promise<boolean> {
    if (!(await this.tools.allowRead(page.tokens ?? (await countTokens(page.content))))) return false
    await this.tools.think({ text: why, url: page.url })
    this.pages.push(page)
    this.readUrls.add(page.url)
    return true
  }

  /** Fetches a URL through the reader and opens it; a page that cannot be read is a think step, not a failure. */
  async fetchAndOpen(url: string, why: (page: ReadPage) => string): Promise<'read' | 'unread' | 'budget'> {
    this.visited.add(url)
    if (!hostAllowed(url, this.request.hosts)) {
      await this.tools.think({ text: `Skipping ${url}: its host is excluded by the request.`, url })
      return 'unread'
    }
    let page: ReadPage
    try {
      // Said before the fetch, which may take seconds, so a caller sees where the agent is.
      await this.tools.think({ text: `Opening ${url}.`, url })
      page = await this.tools.read(url)
    } catch (error) {
      if (!(error instanceof PageNotRead)) throw error
      await this.tools.think({ text: `Could not read ${url}: ${error.detail}.`, url })
      return 'unread'
    }
    return (await this.open(page, why(page))) ? 'read' : 'budget'
  }

  /** Reads the pages the question names by URL. */
  async readNamedUrls(): Promise<void> {
    for (const url of urlsIn(this.request.question).slice(0, QUESTION_URLS)) {
      const outcome = await this.fetchAndOpen(
        url,
        (page) => `Read ${url}, named in the question: “${page.title || url}”.`,
      )
      if (outcome === 'budget') return
    }
  }

  /** Every passage of the pages read, scored against the question; those at least RELEVANT, best first. */
  async evidence(reranker: RerankEngine): Promise<Evidence[]> {
    const candidates = this.pages.flatMap((page) =>
      passagesOf(page.url, page.content).map((passage) => ({ page, passage })),
    )
    if (candidates.length === 0) return []
    const { scores } = await reranker.rerank(
      this.request.question,
      candidates.map((candidate) => `${candidate.page.title}\n${candidate.passage.text}`),
      { requestedModel: 'deepsearch-v1' },
    )
    return candidates
      .map((candidate, i) => ({
        ...candidate,
        score: Math.min(1, scores[i] * hostBoost(candidate.page.url, this.request.hosts)),
      }))
      .filter((item) => item.score >= RELEVANT)
      .sort((a, b) => b.score - a.score)
  }
}
