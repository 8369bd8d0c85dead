/**
 * The parts of the search API's wire contract (`~/contracts/search`) the demos use at run time, restated
 * with only the valibot functions the site's shared shell already carries. Importing that module here
 * would run all its schemas and pull the rest of valibot into every page's first load (vite.config.ts
 * puts valibot in the `site` chunk). tests/unit/demos/contract.test.ts holds the two together.
 */
import * as v from 'valibot'

export const embeddingTasks = [
  'retrieval.query',
  'retrieval.passage',
  'text-matching',
  'classification',
  'separation',
  'code.query',
  'code.passage',
] as const
export type EmbeddingTask = (typeof embeddingTasks)[number]

export const tokenizers = ['cl100k_base', 'o200k_base', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2'] as const
export type TokenizerName = (typeof tokenizers)[number]

export const maxChunkLength = 100_000

export const embeddingsAnswer = v.object({
  model: v.string(),
  data: v.array(v.object({ index: v.number(), embedding: v.union([v.array(v.number()), v.string()]) })),
  usage: v.object({ total_tokens: v.number() }),
})
export type EmbeddingsAnswer = v.InferOutput<typeof embeddingsAnswer>

export const rerankAnswer = v.object({
  model: v.string(),
  results: v.array(
    v.object({
      index: v.number(),
      relevance_score: v.number(),
      document: v.optional(v.object({ text: v.string() })),
    }),
  ),
  usage: v.object({ total_tokens: v.number() }),
})
export type RerankAnswer = v.InferOutput<typeof rerankAnswer>

/** A token is `[text, ids]` (checked without valibot's tuple, which the shell does not carry). */
const token = v.pipe(
  v.array(v.union([v.string(), v.array(v.number())])),
  v.check(
    (parts) => parts.length === 2 && typeof parts[0] === 'string' && Array.isArray(parts[1]),
    'must be [text, ids]',
  ),
)

export const segmentAnswer = v.object({
  num_tokens: v.number(),
  tokenizer: v.picklist(tokenizers),
  usage: v.object({ tokens: v.number() }),
  num_chunks: v.optional(v.number()),
  tokens: v.optional(v.union([v.array(token), v.array(v.array(token))])),
  chunks: v.optional(v.array(v.string())),
})
export type SegmentAnswer = v.InferOutput<typeof segmentAnswer>

export const classifyAnswer = v.object({
  usage: v.object({ total_tokens: v.number() }),
  data: v.array(
    v.object({
      index: v.number(),
      prediction: v.string(),
      score: v.number(),
      predictions: v.array(v.object({ label: v.string(), score: v.number() })),
    }),
  ),
})
export type ClassifyAnswer = v.InferOutput<typeof classifyAnswer>
