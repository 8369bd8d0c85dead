/**
 * Wire contracts of the search APIs under /v1 (embeddings, rerank, segment, classify, train, classifiers),
 * with the field names existing clients of this API family send and read. The limits here are the
 * documented ones: a request over them is refused with 422 and a message naming the limit.
 */
import * as v from 'valibot'
import { isStorableText, unstorableTextMessage } from './common'

export const searchLimits = {
  /** Inputs of one embeddings, classify or train request; documents of one rerank request. */
  maxInputs: 1024,
  /** Distinct labels of a trained classifier. */
  maxClasses: 16,
  /** Labels of one zero-shot classify request. */
  maxZeroShotLabels: 256,
  /** Trained classifiers one key may own. */
  maxClassifiersPerKey: 16,
  maxNumIters: 100,
  /** Characters of one segment request's content. */
  maxSegmentCharacters: 1_000_000,
  maxChunkLength: 100_000,
  /** Bytes of one /v1 request body (413 beyond). */
  maxBodyBytes: 4 * 1024 * 1024,
} as const

export const embeddingTasks = [
  'retrieval.query',
  'retrieval.passage',
  'text-matching',
  'classification',
  'separation',
] as const
export type EmbeddingTask = (typeof embeddingTasks)[number]

const text = v.pipe(v.string(), v.check(isStorableText, unstorableTextMessage))
const nonEmptyText = v.pipe(text, v.minLength(1, 'must not be empty'))

/** An input as a plain string or as `{text}`, read as its text. */
const textInput = v.union([
  nonEmptyText,
  v.pipe(
    v.strictObject({ text: nonEmptyText }),
    v.transform((o) => o.text),
  ),
])

/** A list of at most `max` inputs; one bare string is accepted as a list of one, as clients of this API send. */
const inputs = (max: number, what: string) =>
  v.pipe(
    v.union([
      v.pipe(
        nonEmptyText,
        v.transform((s) => [s]),
      ),
      v.array(textInput),
    ]),
    v.minLength(1, `must hold at least one ${what}`),
    v.maxLength(max, `must hold at most ${max} ${what}s (the limit per request)`),
  )

const modelName = v.pipe(v.string(), v.minLength(1, 'must name a model'), v.maxLength(128))

export const embeddingTypes = ['float', 'base64', 'binary', 'ubinary'] as const

export const embeddingsBody = v.strictObject({
  model: modelName,
  input: inputs(searchLimits.maxInputs, 'input'),
  task: v.optional(v.picklist(embeddingTasks, `must be one of ${embeddingTasks.join(', ')}`)),
  dimensions: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1))),
  embedding_type: v.optional(v.picklist(embeddingTypes, `must be one of ${embeddingTypes.join(', ')}`), 'float'),
  normalized: v.optional(v.boolean(), true),
  truncate: v.optional(v.boolean(), false),
  late_chunking: v.optional(v.boolean(), false),
})

const usageTotal = v.object({ total_tokens: v.number() })

export const embeddingsAnswer = v.object({
  model: v.string(),
  object: v.literal('list'),
  data: v.array(
    v.object({
      object: v.literal('embedding'),
      index: v.number(),
      embedding: v.union([v.array(v.number()), v.string()]),
    }),
  ),
  usage: v.object({ total_tokens: v.number(), prompt_tokens: v.number() }),
})

export const rerankBody = v.strictObject({
  model: modelName,
  query: nonEmptyText,
  documents: inputs(searchLimits.maxInputs, 'document'),
  top_n: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1))),
  return_documents: v.optional(v.boolean(), true),
  truncate: v.optional(v.boolean(), false),
})

export const rerankAnswer = v.object({
  model: v.string(),
  results: v.array(
    v.object({
      index: v.number(),
      relevance_score: v.number(),
      document: v.optional(v.object({ text: v.string() })),
    }),
  ),
  usage: usageTotal,
})

export const tokenizers = ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base', 'gpt2'] as const
export type TokenizerName = (typeof tokenizers)[number]

const count = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1))

export const segmentBody = v.pipe(
  v.strictObject({
    content: v.pipe(
      nonEmptyText,
      v.maxLength(
        searchLimits.maxSegmentCharacters,
        `must be at most ${searchLimits.maxSegmentCharacters} characters (the limit per request)`,
      ),
    ),
    tokenizer: v.optional(v.picklist(tokenizers, `must be one of ${tokenizers.join(', ')}`), 'cl100k_base'),
    return_tokens: v.optional(v.boolean(), false),
    return_chunks: v.optional(v.boolean(), false),
    max_chunk_length: v.optional(
      v.pipe(count, v.maxValue(searchLimits.maxChunkLength, `must be at most ${searchLimits.maxChunkLength}`)),
      1000,
    ),
    head: v.optional(count),
    tail: v.optional(count),
  }),
  v.check((body) => body.head === undefined || body.tail === undefined, 'give head or tail, not both'),
)

/** A token as `[its text, its ids]`: a character split across tokens shows once, with all their ids. */
const segmentToken = v.tuple([v.string(), v.array(v.number())])

export const segmentAnswer = v.object({
  num_tokens: v.number(),
  tokenizer: v.picklist(tokenizers),
  usage: v.object({ tokens: v.number() }),
  num_chunks: v.optional(v.number()),
  chunk_positions: v.optional(v.array(v.tuple([v.number(), v.number()]))),
  /** Without chunks: the (head or tail of the) content's tokens; with chunks: one list per chunk. */
  tokens: v.optional(v.union([v.array(segmentToken), v.array(v.array(segmentToken))])),
  chunks: v.optional(v.array(v.string())),
})

const classifierId = v.pipe(v.string(), v.uuid('must be a classifier id'))

const label = v.pipe(nonEmptyText, v.maxLength(256, 'must be at most 256 characters'))

export const classifyBody = v.pipe(
  v.strictObject({
    model: v.optional(modelName),
    classifier_id: v.optional(classifierId),
    input: inputs(searchLimits.maxInputs, 'input'),
    labels: v.optional(
      v.pipe(
        v.array(label),
        v.minLength(2, 'must hold at least two labels'),
        v.maxLength(
          searchLimits.maxZeroShotLabels,
          `must hold at most ${searchLimits.maxZeroShotLabels} labels (the limit per request)`,
        ),
        v.check((labels) => new Set(labels).size === labels.length, 'must not repeat a label'),
      ),
    ),
  }),
  v.check(
    (body) => (body.classifier_id === undefined) !== (body.labels === undefined),
    'give labels (zero-shot) or classifier_id (a trained classifier), not both',
  ),
  v.check(
    (body) => body.classifier_id !== undefined || body.model !== undefined,
    'name a model for zero-shot classification',
  ),
)

const scoredLabel = v.object({ label: v.string(), score: v.number() })

export const classifyAnswer = v.object({
  usage: usageTotal,
  data: v.array(
    v.object({
      object: v.literal('classification'),
      index: v.number(),
      prediction: v.string(),
      score: v.number(),
      predictions: v.array(scoredLabel),
    }),
  ),
})

export const classifierAccess = ['public', 'private'] as const

export const trainBody = v.pipe(
  v.strictObject({
    model: v.optional(modelName),
    classifier_id: v.optional(classifierId),
    access: v.optional(v.picklist(classifierAccess, 'must be public or private')),
    num_iters: v.optional(
      v.pipe(count, v.maxValue(searchLimits.maxNumIters, `must be at most ${searchLimits.maxNumIters}`)),
      10,
    ),
    input: v.pipe(
      v.array(v.strictObject({ text: nonEmptyText, label })),
      v.minLength(1, 'must hold at least one example'),
      v.maxLength(
        searchLimits.maxInputs,
        `must hold at most ${searchLimits.maxInputs} examples (the limit per request)`,
      ),
    ),
  }),
  v.check(
    (body) => (body.classifier_id === undefined) !== (body.model === undefined),
    'give model (a new classifier) or classifier_id (train an existing one further), not both',
  ),
)

export const trainAnswer = v.object({
  classifier_id: v.string(),
  num_samples: v.number(),
  usage: usageTotal,
})

export const classifierItem = v.object({
  classifier_id: v.string(),
  model_name: v.string(),
  labels: v.array(v.string()),
  access: v.picklist(classifierAccess),
  updated_number: v.number(),
  used_number: v.number(),
  created_at: v.string(),
  updated_at: v.string(),
  used_at: v.nullable(v.string()),
  metadata: v.record(v.string(), v.unknown()),
})
export type ClassifierItem = v.InferOutput<typeof classifierItem>

export const classifiersAnswer = v.array(classifierItem)

export const deleteClassifierAnswer = v.object({ classifier_id: v.string(), deleted: v.literal(true) })
