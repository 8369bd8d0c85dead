import type { UrlCitation } from '~/contracts/deepsearch'
import type { RerankEngine } from '../../inference/engines'
import type { UpstreamConnection } from '../../inference/upstream/client'
import type { WebSearchEngine } from '../../search/engine'
import { countTokens } from '../../inference/tokens'
import { bestQuote, writeExtractiveAnswer, type Evidence } from '../builtin/answer'
import type { AgentQuestion, AgentResult, AgentTools, DeepSearchEngine } from '../engine'
import { hostAllowed, hostBoost } from '../hosts'
import { sentencesOf } from '../passages'
import { Reading } from '../reading'
import { chat, type ChatMessage } from './llm'
import { answerMessages, conversationText, planMessages, readPlan, type NumberedPassage } from './prompts'

/** Passages put before the model at most: the best ones, enough to answer, few enough to stay cheap. */
const PROMPT_PASSAGES = 12
/** Results of one web search that are read at most. */
const READS_PER_QUERY = 2
/** Results one web search asks for: the reads come from the best of them. */
const SEARCH_RESULTS = 20
const PLAN_TOKENS = 400
const ANSWER_TOKENS = 1200

const promptTokens = (messages: ChatMessage[]) => countTokens(messages.map((m) => m.content).join('\n'))
const numbered = (evidence: Evidence[]): NumberedPassage[] =>
  evidence
    .slice(0, PROMPT_PASSAGES)
    .map(({ page, passage }) => ({ title: page.title, url: page.url, text: passage.text }))

/**
 * The upstream agent: an OpenAI-compatible chat model reasons (is the evidence enough? what to search
 * next?) and writes the answer; a SearXNG-style API searches the web; pages are read through the reader
 * and their passages ranked with the built-in reranker, so the model sees only the best ones.
 */
export function createUpstreamAgent(options: {
  llm: UpstreamConnection & { model: string }
  search: WebSearchEngine
  reranker: RerankEngine
}): DeepSearchEngine {
  return {
    kind: 'upstream',
    async run(request: AgentQuestion, tools: AgentTools): Promise<AgentResult> {
      const reading = new Reading(request, tools)
      const conversation = conversationText(request.context)
      await reading.readNamedUrls()
      let evidence = await reading.evidence(options.reranker)
      let budgetSpent = false
      for (let attempt = 1; attempt <= request.maxAttempts && !budgetSpent; attempt++) {
        tools.signal.throwIfAborted()
        const messages = planMessages(request.question, numbered(evidence), attempt, request.maxAttempts, conversation)
        if (!(await tools.allowRead(await promptTokens(messages)))) break
        const plan = readPlan(await chat(options.llm, messages, PLAN_TOKENS, request.model), request.question)
        if (plan.think) await tools.think({ text: plan.think })
        const mustSearch = request.noDirectAnswer && reading.pages.length === 0
        if (plan.action === 'answer' && !mustSearch) break
        const queries = plan.action === 'search' ? plan.queries : [request.question]
        for (const query of queries) {
          await tools.think({ text: `Searching the web for “${query}”.`, query })
          const found = await options.search.search({ q: query, count: SEARCH_RESULTS, sites: [], type: 'web' })
          const results = found
            .filter((result) => hostAllowed(result.url, request.hosts) && !reading.visited.has(result.url))
            .sort((a, b) => hostBoost(b.url, request.hosts) - hostBoost(a.url, request.hosts))
          for (const result of results) reading.visited.add(result.url)
          for (const result of results.slice(0, READS_PER_QUERY)) {
            const outcome = await reading.fetchAndOpen(result.url, (page) => `Reading “${page.title || result.title}”.`)
            if (outcome === 'budget') budgetSpent = true
            if (budgetSpent) break
          }
          if (budgetSpent) break
        }
        evidence = await reading.evidence(options.reranker)
      }

      const passages = numbered(evidence)
      const messages = answerMessages(request.question, passages, conversation)
      if (passages.length === 0 || !(await tools.allowRead(await promptTokens(messages)))) {
        // Nothing to give the model, or no budget left for it: quote the best evidence instead.
        await tools.think({ text: 'Answering from the passages read, quoted as the pages have them.' })
        const citations = await writeExtractiveAnswer(request.question, evidence, request.maxCitations, tools)
        return { citations, visitedURLs: [...reading.visited], readURLs: reading.readURLs }
      }
      const reply = await chat(options.llm, messages, ANSWER_TOKENS, request.model)
      const { text, citations } = citedAnswer(reply, evidence.slice(0, PROMPT_PASSAGES), request.maxCitations)
      for (const sentence of sentencesOf(text)) await tools.write(`${sentence.text} `)
      return { citations, visitedURLs: [...reading.visited], readURLs: reading.readURLs }
    },
  }
}

/**
 * The model's answer with its `[^n]` markers renumbered in order of first use (markers naming no passage,
 * or past `maxCitations` sources, are dropped), and one citation per source: the passage's sentence that
 * best matches the sentence citing it, exactly as its page has it.
 */
export function citedAnswer(
  reply: string,
  evidence: Evidence[],
  maxCitations: number,
): { text: string; citations: UrlCitation[] } {
  const order: number[] = []
  const citing = new Map<number, string>()
  for (const sentence of sentencesOf(reply))
    for (const [, n] of sentence.text.matchAll(/\[\^(\d+)\]/g)) {
      const index = Number(n) - 1
      if (!evidence[index] || citing.has(index) || order.length >= maxCitations) continue
      order.push(index)
      citing.set(index, sentence.text.replace(/\[\^\d+\]/g, ''))
    }
  const text = reply
    .replace(/\[\^(\d+)\]/g, (_, n: string) => {
      const position = order.indexOf(Number(n) - 1)
      return position < 0 ? '' : `[^${position + 1}]`
    })
    .trim()
  const readAt = new Date().toISOString()
  const citations = order.map((index) => {
    const item = evidence[index]
    return {
      title: item.page.title || item.page.url,
      exactQuote: bestQuote(citing.get(index)!, item),
      url: item.page.url,
      dateTime: item.page.publishedTime ?? readAt,
    }
  })
  return { text, citations }
}
