import { describe, expect, it } from 'vitest'
import {
  BM25_HALF_SCORE,
  bm25Relevance,
  bm25Scores,
  createBm25Reranker,
  DEFAULT_COSINE_BLEND,
} from '~/server/providers/inference/builtin/bm25'
import { createHashedEmbeddings } from '~/server/providers/inference/builtin/hashed-embeddings'
import type { EmbeddingEngine } from '~/server/providers/inference/engines'
import { cosine } from './support/vectors'

const request = { requestedModel: 'anything' }
const france = [
  'Berlin is the capital of Germany',
  'Paris is the capital of France',
  'France is known for its wine',
  'The Eiffel Tower is in Paris',
]

const ranking = (scores: number[]) => scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a])

describe('BM25 scoring', () => {
  it('follows Okapi BM25 (k1 1.2, b 0.75) with a smoothed IDF', () => {
    // Two documents: "a b" (2 terms) and "c" (1), average length 1.5; "a" is in one of them.
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5))
    const expected = (idf * 1 * 2.2) / (1 + 1.2 * (1 - 0.75 + (0.75 * 2) / 1.5))
    const [first, second] = bm25Scores('a', ['a b', 'c'])
    expect(first).toBeCloseTo(expected, 12)
    expect(second).toBe(0)
  })

  it('still scores a request of one document', () => {
    const [score] = bm25Scores('capital of France', ['Paris is the capital of France'])
    expect(score).toBeGreaterThan(0)
  })

  it('maps raw scores to [0, 1) by a fixed increasing function', () => {
    expect(bm25Relevance(0)).toBe(0)
    expect(bm25Relevance(BM25_HALF_SCORE)).toBe(0.5)
    expect(bm25Relevance(100)).toBeLessThan(1)
    expect(bm25Relevance(3)).toBeGreaterThan(bm25Relevance(2.9))
  })
})

describe('the BM25 reranker', () => {
  it('ranks the document that answers the query first and scores the others clearly lower', async () => {
    const reranker = createBm25Reranker()
    const { model, scores } = await reranker.rerank('capital of France', france, request)
    expect(model).toBe('builtin-bm25')
    expect(ranking(scores)[0]).toBe(1)
    for (const score of scores) expect(score).toBeGreaterThanOrEqual(0)
    for (const score of scores) expect(score).toBeLessThanOrEqual(1)
    expect(scores[3]).toBe(0)
    expect(scores[2]).toBeLessThan(scores[1] * 0.6)
    expect(scores[0]).toBeLessThan(scores[1])
  })

  it('does not stretch a request of irrelevant documents to look relevant', async () => {
    const { scores } = await createBm25Reranker().rerank(
      'capital of France',
      ['Bananas are yellow', 'Cats sleep'],
      request,
    )
    expect(scores).toEqual([0, 0])
  })

  it('matches CJK queries by character bigrams', async () => {
    const documents = ['今天东京的天气很好', '大阪的美食很有名', 'Tokyo weather today']
    const { scores } = await createBm25Reranker().rerank('东京的天气', documents, request)
    expect(ranking(scores)[0]).toBe(0)
    expect(scores[1]).toBeLessThan(scores[0] / 2)
  })

  it('answers an empty list of documents with no scores', async () => {
    expect((await createBm25Reranker().rerank('query', [], request)).scores).toEqual([])
  })

  it('blends in the embedding cosine: 0.3 of it by default, the rest BM25', async () => {
    const embeddings = createHashedEmbeddings()
    const blended = await createBm25Reranker({ embeddings }).rerank('capital of France', france, request)
    const lexical = await createBm25Reranker().rerank('capital of France', france, request)
    const [query] = (
      await embeddings.embed(['capital of France'], { ...request, task: undefined, lateChunking: false })
    ).vectors
    const documents = (await embeddings.embed(france, { ...request, task: undefined, lateChunking: false })).vectors
    expect(blended.model).toBe('builtin-bm25+builtin-sparse-ngrams-1024')
    expect(DEFAULT_COSINE_BLEND).toBe(0.3)
    blended.scores.forEach((score, i) => {
      const semantic = Math.max(0, cosine(query, documents[i]))
      expect(score).toBeCloseTo(0.7 * lexical.scores[i] + 0.3 * semantic, 6)
      expect(score).toBeGreaterThanOrEqual(0)
      expect(score).toBeLessThanOrEqual(1)
    })
    expect(ranking(blended.scores)[0]).toBe(1)
  })

  it('asks the embedding engine for query and passage vectors and names its model', async () => {
    const tasks: (string | undefined)[] = []
    // An engine whose vectors are the same for every text: the blend then adds the same amount everywhere.
    const constant: EmbeddingEngine = {
      kind: 'onnx',
      dimensions: 2,
      maxInputTokens: 512,
      supportsLateChunking: false,
      tasks: { kind: 'adapters', tasks: ['retrieval.query', 'retrieval.passage'] },
      readsImages: false,
      async embed(texts, options) {
        tasks.push(options.task)
        return { model: 'some-onnx-model', vectors: texts.map(() => Float32Array.of(0.6, 0.8)), taskApplied: true }
      },
    }
    const { model, scores } = await createBm25Reranker({ embeddings: constant, blend: 0.5 }).rerank(
      'capital of France',
      france,
      request,
    )
    const lexical = (await createBm25Reranker().rerank('capital of France', france, request)).scores
    expect(model).toBe('builtin-bm25+some-onnx-model')
    expect(tasks.sort()).toEqual(['retrieval.passage', 'retrieval.query'])
    scores.forEach((score, i) => expect(score).toBeCloseTo(0.5 * lexical[i] + 0.5, 6))
  })

  it('refuses a blend outside [0, 1] or without an embedding engine', () => {
    const embeddings = createHashedEmbeddings()
    expect(() => createBm25Reranker({ embeddings, blend: 1.5 })).toThrow(/between 0 and 1/)
    expect(() => createBm25Reranker({ embeddings, blend: Number.NaN })).toThrow(/between 0 and 1/)
    expect(() => createBm25Reranker({ blend: 0.3 })).toThrow(/needs an embedding engine/)
  })
})
