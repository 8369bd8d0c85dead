/**
 * The evaluation set of tests/fixtures/eval/ (how it was made: its README) and the measures taken on it:
 * nDCG@10 of retrieving each query's relevant passages among all passages, paraphrase accuracy (each pair's
 * first text finds its own second among all second texts of its language) and classification accuracy (a
 * logistic regression trained on the English passages' topics predicts each query's topic). Shared by the
 * benchmark (tests/bench/eval.bench.ts) and the regression checks in the unit tests.
 */
import { readFileSync } from 'node:fs'
import type { EmbeddingEngine, RerankEngine } from '~/server/providers/inference/engines'
import { predict, trainClassifier } from '~/server/providers/inference/classifier-model'

export const evalLanguages = ['en', 'de', 'fr'] as const
export type EvalLanguage = (typeof evalLanguages)[number]

export interface Passage {
  id: string
  source: string
  topic: string
  text: string
}
export type Query = { id: string; relevant: string[] } & Record<EvalLanguage, string>
export type ParaphrasePair = { id: string } & Record<EvalLanguage, [string, string]>

const fixture = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../fixtures/eval/${name}`, import.meta.url), 'utf8')) as T

export const passages = fixture<Passage[]>('passages.json')
export const queries = fixture<Query[]>('queries.json')
export const paraphrases = fixture<ParaphrasePair[]>('paraphrases.json')

/** nDCG@k of one ranking (passage ids, best first) with binary relevance. */
export function ndcgAt(k: number, ranking: string[], relevant: ReadonlySet<string>): number {
  let dcg = 0
  ranking.slice(0, k).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2)
  })
  let ideal = 0
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2)
  return ideal === 0 ? 0 : dcg / ideal
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)

const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i]
  return sum
}

/** Ids of `candidates` ordered by score, best first (ties keep the passages' order). */
function ranked(scores: number[], candidates: Passage[]): string[] {
  return scores
    .map((score, i) => ({ score, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ i }) => candidates[i].id)
}

/** Options every measure embeds with: queries and passages as an API caller would send them. */
const asQuery = { task: 'retrieval.query', lateChunking: false } as const
const asPassage = { task: 'retrieval.passage', lateChunking: false } as const
const plain = { task: undefined, lateChunking: false } as const

/** Embeds in batches of 64, as a client would send them (and so no one call holds a large batch). */
async function embedAll(
  engine: EmbeddingEngine,
  texts: string[],
  options: typeof asQuery | typeof asPassage | typeof plain,
) {
  const vectors: Float32Array[] = []
  for (let i = 0; i < texts.length; i += 64)
    vectors.push(...(await engine.embed(texts.slice(i, i + 64), options)).vectors)
  return vectors
}

export interface RetrievalOptions {
  language: EvalLanguage
  /** Only these queries (a subset for fast checks); all by default. */
  subset?: Query[]
  /** Only these passages to rank (a subset for fast checks); all by default. */
  passages?: Passage[]
  k?: number
}

/** Mean nDCG@k of ranking every passage by cosine to each query. */
export async function embeddingNdcg(engine: EmbeddingEngine, options: RetrievalOptions): Promise<number> {
  const asked = options.subset ?? queries
  const pool = options.passages ?? passages
  const passageVectors = await embedAll(
    engine,
    pool.map((p) => p.text),
    asPassage,
  )
  const queryVectors = await embedAll(
    engine,
    asked.map((q) => q[options.language]),
    asQuery,
  )
  return mean(
    asked.map((query, i) =>
      ndcgAt(
        options.k ?? 10,
        ranked(
          passageVectors.map((p) => dot(queryVectors[i], p)),
          pool,
        ),
        new Set(query.relevant),
      ),
    ),
  )
}

/** Mean nDCG@k of a reranker scoring every passage for each query (BM25 alone, or blended). */
export async function rerankNdcg(reranker: RerankEngine, options: RetrievalOptions): Promise<number> {
  const asked = options.subset ?? queries
  const pool = options.passages ?? passages
  const texts = pool.map((p) => p.text)
  const scores: number[] = []
  for (const query of asked) {
    const { scores: relevance } = await reranker.rerank(query[options.language], texts)
    scores.push(ndcgAt(options.k ?? 10, ranked(relevance, pool), new Set(query.relevant)))
  }
  return mean(scores)
}

/** Share of pairs whose first text is closest to its own second text among all second texts of the language. */
export async function paraphraseAccuracy(
  engine: EmbeddingEngine,
  language: EvalLanguage,
  pairs: ParaphrasePair[] = paraphrases,
): Promise<number> {
  const first = await embedAll(
    engine,
    pairs.map((p) => p[language][0]),
    plain,
  )
  const second = await embedAll(
    engine,
    pairs.map((p) => p[language][1]),
    plain,
  )
  const hits = first.map((vector, i) => {
    const scores = second.map((other) => dot(vector, other))
    return scores.indexOf(Math.max(...scores)) === i
  })
  return hits.filter(Boolean).length / pairs.length
}

/**
 * Share of queries whose topic (that of their first relevant passage) a classifier trained on the English
 * passages predicts, as POST /v1/train and /v1/classify would with the engine's vectors.
 */
export async function classificationAccuracy(engine: EmbeddingEngine, language: EvalLanguage): Promise<number> {
  const topicOf = new Map(passages.map((p) => [p.id, p.topic]))
  const vectors = await embedAll(
    engine,
    passages.map((p) => p.text),
    plain,
  )
  const model = await trainClassifier({
    examples: passages.map((p, i) => ({ vector: vectors[i], label: p.topic })),
    numIters: 100,
  })
  const queryVectors = await embedAll(
    engine,
    queries.map((q) => q[language]),
    plain,
  )
  const predicted = predict(model, queryVectors)
  return mean(queries.map((q, i) => (predicted[i][0].label === topicOf.get(q.relevant[0]) ? 1 : 0)))
}
