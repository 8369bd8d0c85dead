import { describe, expect, it } from 'vitest'
import { engineFigures } from '~/features/marketing/models/engine-figures'
import { BUILTIN_RERANK_BLEND } from '~/server/providers/inference/registry'
import { createBm25Reranker } from '~/server/providers/inference/builtin/bm25'
import { createHashedEmbeddings } from '~/server/providers/inference/builtin/hashed-embeddings'
import type { EmbeddingEngine } from '~/server/providers/inference/engines'
import { countTokens } from '~/server/providers/inference/tokens'
import { createUseLiteEngines, USE_LITE_RERANK_BLEND } from '~/server/providers/inference/use-lite'
import { recordResults, type BenchResult } from './support/results'
import {
  classificationAccuracy,
  embeddingNdcg,
  evalLanguages,
  paraphraseAccuracy,
  passages,
  rerankNdcg,
} from '../support/eval-set'

/**
 * The engines on the evaluation set (tests/fixtures/eval/README.md), in this process: retrieval nDCG@10 of
 * BM25 alone, of each engine's embeddings and of each engine's reranker (BM25 blended with its cosine, as the
 * registry builds it), paraphrase and classification accuracy, per language; and each embedding engine's
 * throughput on this machine. `npm start`'s default engine is the best of them at no less than a tenth of
 * the hashed engine's throughput (the budget of the last row).
 */
const RUN_SECONDS = Number(process.env.BENCH_EVAL_SECONDS ?? 8)

/**
 * Each text embedded once: a reranker embeds its documents for every query, so a reranker over this wrapper
 * scores exactly as over the engine, without computing 190 passages' vectors 110 times.
 */
function remembered(engine: EmbeddingEngine): EmbeddingEngine {
  const vectors = new Map<string, Float32Array>()
  return {
    ...engine,
    async embed(inputs, options) {
      const texts = inputs as string[]
      const missing = [...new Set(texts.filter((text) => !vectors.has(text)))]
      if (missing.length > 0) {
        const computed = await engine.embed(missing, options)
        missing.forEach((text, i) => vectors.set(text, computed.vectors[i]))
      }
      return { model: engine.model ?? '', vectors: texts.map((text) => vectors.get(text)!), taskApplied: false }
    },
  }
}

/** Texts and metering tokens a second, batches of 32 of the set's passages in turn, for RUN_SECONDS. */
async function throughput(engine: EmbeddingEngine) {
  const texts = passages.map((p) => p.text)
  const counts = await Promise.all(texts.map(countTokens))
  const options = { task: undefined, lateChunking: false }
  await engine.embed(texts.slice(0, 32), options)
  let embedded = 0
  let tokens = 0
  const started = performance.now()
  for (let at = 0; performance.now() - started < RUN_SECONDS * 1000; at = (at + 32) % texts.length) {
    const batch = texts.slice(at, at + 32)
    await engine.embed(batch, options)
    embedded += batch.length
    tokens += counts.slice(at, at + 32).reduce((sum, count) => sum + count, 0)
  }
  const seconds = (performance.now() - started) / 1000
  return { texts: Math.round(embedded / seconds), tokens: Math.round(tokens / seconds) }
}

const round = (value: number) => Number(value.toFixed(3))

describe('the engines on the evaluation set', () => {
  it('scores BM25, the hashed engine and use-lite per language, and their throughput', async () => {
    const hashed = createHashedEmbeddings({ seedName: 'embeddings-v3' })
    const useLite = createUseLiteEngines().embeddings
    const engines = { builtin: remembered(hashed), 'use-lite': remembered(useLite) }
    const blends = { builtin: BUILTIN_RERANK_BLEND, 'use-lite': USE_LITE_RERANK_BLEND }
    const results: BenchResult[] = []
    const score = (name: string, value: number, unit: string, note?: string) =>
      results.push({ name, value: round(value), unit, ...(note ? { note } : {}) })

    for (const language of evalLanguages) {
      score(`${language} nDCG@10, BM25`, await rerankNdcg(createBm25Reranker(), { language }), '')
      for (const [name, engine] of Object.entries(engines)) {
        score(`${language} nDCG@10, ${name} embeddings`, await embeddingNdcg(engine, { language }), '')
        const reranker = createBm25Reranker({ embeddings: engine, blend: blends[name as keyof typeof blends] })
        score(
          `${language} nDCG@10, ${name} reranker`,
          await rerankNdcg(reranker, { language }),
          '',
          `BM25 ${1 - blends[name as keyof typeof blends]} + cosine ${blends[name as keyof typeof blends]}`,
        )
        score(`${language} paraphrase accuracy, ${name}`, await paraphraseAccuracy(engine, language), '')
        score(`${language} classification accuracy, ${name}`, await classificationAccuracy(engine, language), '')
      }
    }

    const fast = await throughput(hashed)
    const slow = await throughput(useLite)
    const average = Math.round(fast.tokens / fast.texts)
    const note = `the set’s passages (${average} tokens on average), batches of 32, one process`
    results.push(
      { name: 'builtin embeddings/s', value: fast.texts, unit: 'texts/s', note },
      { name: 'builtin tokens/s', value: fast.tokens, unit: 'tokens/s', note: 'cl100k_base, as metered' },
      { name: 'use-lite embeddings/s', value: slow.texts, unit: 'texts/s', note: `${note}; its thread alone` },
      { name: 'use-lite tokens/s', value: slow.tokens, unit: 'tokens/s', note: 'cl100k_base, as metered' },
      {
        name: 'use-lite ÷ builtin throughput',
        value: round(slow.texts / fast.texts),
        unit: '×',
        budget: { op: '>=', value: 0.1 },
        note: 'at least a tenth to be npm start’s default',
      },
    )
    console.table(results.map(({ name, value, unit }) => ({ name, value, unit })))
    recordResults('eval', results)
    expect(results.every((r) => Number.isFinite(r.value))).toBe(true)
    // What the model pages say of each engine is what was measured here.
    const measured = (name: string) => results.find((r) => r.name === name)!.value
    for (const [engine, figures] of Object.entries(engineFigures)) {
      for (const language of evalLanguages) {
        expect(figures.embeddings[language], `${engine} ${language}`).toBe(
          measured(`${language} nDCG@10, ${engine} embeddings`),
        )
        expect(figures.reranker[language], `${engine} ${language}`).toBe(
          measured(`${language} nDCG@10, ${engine} reranker`),
        )
      }
      expect(figures.paraphrase, engine).toBe(measured(`en paraphrase accuracy, ${engine}`))
    }
  })
})
