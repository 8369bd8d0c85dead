import * as v from 'valibot'
import { unitVector } from '../unit-vector'
import { malformed } from './client'

/** What we read of an upstream's /v1/embeddings answer; other fields (usage, object) are ignored. */
const embeddingsAnswer = v.object({
  model: v.optional(v.string()),
  data: v.array(v.object({ index: v.pipe(v.number(), v.integer()), embedding: v.array(v.number()) })),
})

/** What we read of an upstream's /v1/rerank answer. */
const rerankAnswer = v.object({
  model: v.optional(v.string()),
  results: v.array(v.object({ index: v.pipe(v.number(), v.integer()), relevance_score: v.number() })),
})

/**
 * One unit vector per input, in input order: exactly one item per input index, all of one dimension, each
 * re-normalised (an upstream may round or ignore `normalized`). Anything else is the upstream's fault (502).
 */
export function readEmbeddings(json: unknown, inputs: number): { model: string | undefined; vectors: Float32Array[] } {
  const parsed = v.safeParse(embeddingsAnswer, json)
  if (!parsed.success) throw malformed('/v1/embeddings', 'shape')
  const { data, model } = parsed.output
  if (data.length !== inputs) throw malformed('/v1/embeddings', `${data.length} vectors for ${inputs} inputs`)
  const dimensions = data[0]?.embedding.length ?? 0
  const vectors = new Array<Float32Array>(inputs)
  for (const { index, embedding } of data) {
    if (index < 0 || index >= inputs || vectors[index]) throw malformed('/v1/embeddings', `index ${index}`)
    if (embedding.length !== dimensions) throw malformed('/v1/embeddings', 'vectors of different dimensions')
    const vector = unitVector(embedding)
    if (!vector) throw malformed('/v1/embeddings', 'a zero or non-finite vector')
    vectors[index] = vector
  }
  return { model, vectors }
}

/** One score per document, in document order, clamped to [0, 1]; every document must be scored exactly once. */
export function readScores(json: unknown, documents: number): { model: string | undefined; scores: number[] } {
  const parsed = v.safeParse(rerankAnswer, json)
  if (!parsed.success) throw malformed('/v1/rerank', 'shape')
  const scores = new Array<number | undefined>(documents).fill(undefined)
  for (const { index, relevance_score } of parsed.output.results) {
    if (index < 0 || index >= documents || scores[index] !== undefined) throw malformed('/v1/rerank', `index ${index}`)
    if (!Number.isFinite(relevance_score)) throw malformed('/v1/rerank', 'a non-finite score')
    scores[index] = Math.min(1, Math.max(0, relevance_score))
  }
  if (scores.some((score) => score === undefined)) throw malformed('/v1/rerank', 'unscored documents')
  return { model: parsed.output.model, scores: scores as number[] }
}
