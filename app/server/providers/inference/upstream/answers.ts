import * as v from 'valibot'
import { unitVector } from '../unit-vector'
import { malformed } from './client'

/** What we read of an upstream's /v1/embeddings answer; other fields (usage, object) are ignored. */
const embeddingsAnswer = v.object({
  model: v.optional(v.string()),
  data: v.array(
    v.object({
      index: v.pipe(v.number(), v.integer()),
      embedding: v.optional(v.array(v.number())),
      /** Multi-vector answers: one vector per token. */
      embeddings: v.optional(v.array(v.array(v.number()))),
    }),
  ),
})

/** What we read of an upstream's /v1/rerank answer. */
const rerankAnswer = v.object({
  model: v.optional(v.string()),
  results: v.array(v.object({ index: v.pipe(v.number(), v.integer()), relevance_score: v.number() })),
})

/**
 * One vector per input, in input order: exactly one item per input index, all of one dimension, each
 * re-normalised when unit vectors were asked for (an upstream may round), kept raw otherwise. With
 * `multiVector`, each item's token vectors too. Anything else is the upstream's fault (502).
 */
export function readEmbeddings(
  json: unknown,
  inputs: number,
  options: { normalized: boolean; multiVector?: boolean } = { normalized: true },
): { model: string | undefined; vectors: Float32Array[]; multiVectors?: Float32Array[][] } {
  const parsed = v.safeParse(embeddingsAnswer, json)
  if (!parsed.success) throw malformed('/v1/embeddings', 'shape')
  const { data, model } = parsed.output
  if (data.length !== inputs) throw malformed('/v1/embeddings', `${data.length} vectors for ${inputs} inputs`)
  const vectors = new Array<Float32Array>(inputs)
  const multiVectors = options.multiVector ? new Array<Float32Array[]>(inputs) : undefined
  const read = (values: number[]) => {
    const vector = options.normalized ? unitVector(values) : rawVector(values)
    if (!vector) throw malformed('/v1/embeddings', 'a zero or non-finite vector')
    return vector
  }
  let dimensions: number | undefined
  for (const { index, embedding, embeddings } of data) {
    if (index < 0 || index >= inputs || vectors[index]) throw malformed('/v1/embeddings', `index ${index}`)
    // A multi-vector answer may carry only the token vectors: its single vector is then their mean.
    const single = embedding ?? (embeddings?.length ? meanOf(embeddings) : undefined)
    if (!single) throw malformed('/v1/embeddings', 'an item without an embedding')
    dimensions ??= single.length
    if (single.length !== dimensions) throw malformed('/v1/embeddings', 'vectors of different dimensions')
    vectors[index] = read(single)
    if (multiVectors) {
      if (!embeddings) throw malformed('/v1/embeddings', 'no token vectors for return_multivector')
      multiVectors[index] = embeddings.map(read)
    }
  }
  return { model, vectors, multiVectors }
}

function rawVector(values: number[]): Float32Array | undefined {
  if (!values.every(Number.isFinite) || values.every((value) => value === 0)) return undefined
  return Float32Array.from(values)
}

function meanOf(vectors: number[][]): number[] {
  const mean = new Array<number>(vectors[0].length).fill(0)
  for (const vector of vectors) for (let i = 0; i < mean.length; i++) mean[i] += (vector[i] ?? 0) / vectors.length
  return mean
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
