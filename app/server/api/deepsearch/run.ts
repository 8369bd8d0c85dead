import * as v from 'valibot'
import { effortDefaults, modelChatOptions, type AnnotatedCitation, type DeepSearchBody } from '~/contracts/deepsearch'
import { refuseKeyUse } from '../../domain/key-controls'
import { InsufficientBalance } from '../../domain/refusals'
import { serverEnv } from '../../env'
import type { AgentQuestion, AgentTools } from '../../providers/deepsearch/engine'
import { deepSearchEngine } from '../../providers/deepsearch/select'
import { countTokens } from '../../providers/inference/tokens'
import { targetUrl } from '../../providers/reader/page-rules'
import { keyOf, type Caller } from '../caller'
import { cachedOrRead } from '../reader/page-cache'
import { readerHeaders } from '~/contracts/reader'
import { TokenMeter } from '../search/meter'
import { chunkMaker, THINK_CLOSE, THINK_OPEN, type ChunkMaker, type Totals } from './chunks'
import { annotateCitations } from './spans'
import type { CompletionChunk } from '~/contracts/deepsearch'
import { metadataTagOf } from '../request-log/tag'

/** Sources an answer cites at most, by effort. */
const citationsByEffort = { low: 3, medium: 5, high: 8 } as const
/** Seconds a page the agent opens may take to arrive. */
const READ_TIMEOUT_SECONDS = 15

/** The budget kept back for the answer: the agent stops reading before it would eat into it. */
export const answerReserve = (budget: number) => Math.min(1500, Math.floor(budget / 10))

export interface DeepSearchRun {
  chunks: ChunkMaker
  /**
   * Runs the agent, handing each chunk to `emit` as soon as it is paid for (`streaming`: the caller receives
   * them as they come); resolves with what the last chunk reports: the content as the stream's content deltas
   * make it (with `think_tags`, the `<think>` part, then the answer), the reasoning steps, and the citations
   * with their spans in that content.
   */
  run(
    emit: (chunk: CompletionChunk) => void,
    options: { signal: AbortSignal; streaming: boolean },
  ): Promise<DeepSearchOutcome>
}

export interface DeepSearchOutcome {
  content: string
  /** The reasoning steps, one a line, and the tokens they took (of `totals.usage.completion_tokens`). */
  reasoning: string
  reasoningTokens: number
  citations: AnnotatedCitation[]
  totals: Totals
  finish: 'stop' | 'length'
}

/** The run reached `max_tokens`: it stops before the chunk that would pass it. */
class LengthReached extends Error {}

function questionOf(body: DeepSearchBody): AgentQuestion {
  const effort = effortDefaults[body.reasoning_effort]
  return {
    question: body.messages.at(-1)!.content.trim(),
    context: body.messages.slice(0, -1),
    maxAttempts: body.max_attempts ?? effort.maxAttempts,
    maxCitations: Math.min(citationsByEffort[body.reasoning_effort], body.max_returned_urls ?? Infinity),
    noDirectAnswer: body.no_direct_answer,
    hosts: { boost: body.boost_hostnames, bad: body.bad_hostnames, only: body.only_hostnames },
    model: {
      sampling: Object.fromEntries(
        modelChatOptions.flatMap((option) => (body[option] == null ? [] : [[option, body[option]]])),
      ),
      maxTokens: maxWrittenOf(body),
      responseFormat: body.response_format,
    },
  }
}

const maxWrittenOf = (body: DeepSearchBody) => body.max_completion_tokens ?? body.max_tokens ?? undefined

/**
 * POST /v1/chat/completions (and /v1/responses, read as one). Checks the caller (its key, limit and balance) before anything is sent, so
 * those refusals are plain HTTP answers; the run then meters every token the agent reads (pages, prompts)
 * and writes (reasoning, answer) against `budget_tokens` and the key's balance, each covered before the
 * chunk carrying it leaves. What was reserved and not used is given back when the run ends; a run that fails
 * is charged only the text it already streamed (nothing, unstreamed), as a failed request of the other APIs is.
 */
export async function prepareDeepSearch(caller: Caller, body: DeepSearchBody): Promise<DeepSearchRun> {
  const { db, key } = await keyOf(caller, 'deepsearch')
  caller.requestLog?.noteModel(body.model)
  caller.requestLog?.noteTag(metadataTagOf(body))
  refuseKeyUse(key, { product: 'deepsearch', model: body.model })
  if (key.balance <= 0) throw new InsufficientBalance()
  const env = serverEnv()
  const engine = await deepSearchEngine(env)
  const budget = body.budget_tokens ?? effortDefaults[body.reasoning_effort].budgetTokens
  const chunks = chunkMaker(body.model, body.reasoning_format ?? 'parsed')
  const question = questionOf(body)
  const maxWritten = maxWrittenOf(body) ?? Infinity

  return {
    chunks,
    async run(emit, { signal, streaming }) {
      const meter = new TokenMeter(caller, db, key, { product: 'deepsearch', model: body.model })
      const counts = { read: 0, written: 0, reasoning: 0 }
      const total = () => counts.read + counts.written
      let streamed = 0
      let failed = true
      let answer = ''
      let reasoning = ''
      let thinking = true
      const endThinking = () => {
        thinking = false
        const end = chunks.thinkEnd()
        if (end) emit(end)
      }
      const written = async (text: string) => {
        const tokens = await countTokens(text)
        if (counts.written + tokens > maxWritten) throw new LengthReached()
        counts.written += tokens
        await meter.cover(total())
        return tokens
      }
      const tools: AgentTools = {
        signal,
        remaining: () => budget - total(),
        async read(url) {
          // The reader's defaults (the content, no summaries), within deep search's time, by the direct engine:
          // a question's pages are read within its own time, not the key's browser time.
          const headers = v.parse(readerHeaders, { 'x-timeout': String(READ_TIMEOUT_SECONDS), 'x-engine': 'direct' })
          const { page } = await cachedOrRead(db, env, targetUrl(url), headers, { signal, caller: `key:${key.id}` })
          const { title, content, publishedTime } = page
          // Without summaries, the page's output tokens are its content's.
          return { url: page.url, title, content, publishedTime, tokens: page.usage.tokens }
        },
        async allowRead(tokens) {
          if (total() + tokens + answerReserve(budget) > budget) return false
          counts.read += tokens
          await meter.cover(total())
          return true
        },
        async think({ text, url, query }) {
          signal.throwIfAborted()
          const content = `${text}\n`
          counts.reasoning += await written(content)
          reasoning += content
          emit(chunks.think(content, { ...(url && { url }), ...(query && { query }) }))
          streamed = counts.written
        },
        async write(text) {
          signal.throwIfAborted()
          if (thinking) endThinking()
          await written(text)
          answer += text
          emit(chunks.text(text))
          streamed = counts.written
        },
      }
      const totalsOf = (trail: { visitedURLs: string[]; readURLs: string[] }): Totals => ({
        usage: { prompt_tokens: counts.read, completion_tokens: counts.written, total_tokens: total() },
        visitedURLs: trail.visitedURLs,
        readURLs: trail.readURLs,
        numURLs: trail.visitedURLs.length,
      })
      // The content as the content deltas make it: with `think_tags`, the reasoning between its tags first.
      const outcome = (citations: AnnotatedCitation[], totals: Totals, finish: 'stop' | 'length') => ({
        content: `${chunks.format === 'think_tags' ? `${THINK_OPEN}${reasoning}${THINK_CLOSE}` : ''}${answer.trimEnd()}`,
        reasoning,
        reasoningTokens: counts.reasoning,
        citations,
        totals,
        finish,
      })
      const answerOffset = () =>
        chunks.format === 'think_tags' ? THINK_OPEN.length + reasoning.length + THINK_CLOSE.length : 0
      try {
        emit(chunks.thinkStart())
        const result = await engine.run(question, tools)
        if (thinking) endThinking()
        const totals = totalsOf(result)
        const citations = annotateCitations(answer, result.citations, answerOffset())
        emit(chunks.final(citations, totals))
        failed = false
        return outcome(citations, totals, 'stop')
      } catch (error) {
        if (!(error instanceof LengthReached)) throw error
        // Stopped at max_tokens: what was written stands (and is charged), uncited, as OpenAI's "length".
        if (thinking) endThinking()
        const totals = totalsOf({ visitedURLs: [], readURLs: [] })
        emit(chunks.final([], totals, 'length'))
        failed = false
        return outcome([], totals, 'length')
      } finally {
        await meter.settle(failed ? (streaming ? streamed : 0) : total())
        caller.requestLog?.noteSplit(
          failed ? { input: 0, output: streaming ? streamed : 0 } : { input: counts.read, output: counts.written },
        )
      }
    },
  }
}
