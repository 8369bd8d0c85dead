import * as v from 'valibot'
import { effortDefaults, modelChatOptions, type DeepSearchBody, type UrlCitation } from '~/contracts/deepsearch'
import { refuseKeyUse } from '../../domain/key-controls'
import { InsufficientBalance } from '../../domain/refusals'
import { serverEnv } from '../../env'
import type { AgentQuestion, AgentTools } from '../../providers/deepsearch/engine'
import { deepSearchEngine } from '../../providers/deepsearch/select'
import { countTokens } from '../../providers/inference/tokens'
import { targetUrl } from '../../providers/reader/page-rules'
import { keyOf, type Caller } from '../caller'
import { cachedOrRead } from '../reader/page-cache'
import { noteRequestSplit } from '../request-log/record'
import { readerHeaders } from '~/contracts/reader'
import { TokenMeter } from '../search/meter'
import { chunkMaker, type ChunkMaker, type Totals } from './chunks'
import type { CompletionChunk } from '~/contracts/deepsearch'
import { noteRequestModel } from '../request-log/record'

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
   * them as they come); resolves with what the last chunk reports.
   */
  run(
    emit: (chunk: CompletionChunk) => void,
    options: { signal: AbortSignal; streaming: boolean },
  ): Promise<{ content: string; citations: UrlCitation[]; totals: Totals; finish: 'stop' | 'length' }>
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
 * POST /v1/chat/completions. Checks the caller (its key, limit and balance) before anything is sent, so
 * those refusals are plain HTTP answers; the run then meters every token the agent reads (pages, prompts)
 * and writes (reasoning, answer) against `budget_tokens` and the key's balance, each covered before the
 * chunk carrying it leaves. What was reserved and not used is given back when the run ends; a run that fails
 * is charged only the text it already streamed (nothing, unstreamed), as a failed request of the other APIs is.
 */
export async function prepareDeepSearch(caller: Caller, body: DeepSearchBody): Promise<DeepSearchRun> {
  const { db, key } = await keyOf(caller, 'deepsearch')
  noteRequestModel(body.model)
  refuseKeyUse(key, { product: 'deepsearch', model: body.model })
  if (key.balance <= 0) throw new InsufficientBalance()
  const env = serverEnv()
  const engine = await deepSearchEngine(env)
  const budget = body.budget_tokens ?? effortDefaults[body.reasoning_effort].budgetTokens
  const chunks = chunkMaker(body.model)
  const question = questionOf(body)
  const maxWritten = maxWrittenOf(body) ?? Infinity

  return {
    chunks,
    async run(emit, { signal, streaming }) {
      const meter = new TokenMeter(db, key, { product: 'deepsearch', model: body.model })
      const counts = { read: 0, written: 0 }
      const total = () => counts.read + counts.written
      let streamed = 0
      let failed = true
      let answer = ''
      let thinking = true
      const written = async (text: string) => {
        const tokens = await countTokens(text)
        if (counts.written + tokens > maxWritten) throw new LengthReached()
        counts.written += tokens
        await meter.cover(total())
      }
      const tools: AgentTools = {
        signal,
        remaining: () => budget - total(),
        async read(url) {
          // The reader's defaults (the content, the direct engine, no summaries), within deep search's time.
          const headers = v.parse(readerHeaders, { 'x-timeout': String(READ_TIMEOUT_SECONDS) })
          const { page } = await cachedOrRead(db, env, targetUrl(url), headers, { signal })
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
          await written(content)
          emit(chunks.think(content, { ...(url && { url }), ...(query && { query }) }))
          streamed = counts.written
        },
        async write(text) {
          signal.throwIfAborted()
          if (thinking) {
            thinking = false
            emit(chunks.thinkEnd())
          }
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
      try {
        emit(chunks.thinkStart())
        const result = await engine.run(question, tools)
        if (thinking) emit(chunks.thinkEnd())
        const totals = totalsOf(result)
        emit(chunks.final(result.citations, totals))
        failed = false
        return { content: answer.trim(), citations: result.citations, totals, finish: 'stop' }
      } catch (error) {
        if (!(error instanceof LengthReached)) throw error
        // Stopped at max_tokens: what was written stands (and is charged), uncited, as OpenAI's "length".
        if (thinking) emit(chunks.thinkEnd())
        const totals = totalsOf({ visitedURLs: [], readURLs: [] })
        emit(chunks.final([], totals, 'length'))
        failed = false
        return { content: answer.trim(), citations: [], totals, finish: 'length' }
      } finally {
        await meter.settle(failed ? (streaming ? streamed : 0) : total())
        noteRequestSplit(
          failed ? { input: 0, output: streaming ? streamed : 0 } : { input: counts.read, output: counts.written },
        )
      }
    },
  }
}
