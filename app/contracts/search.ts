/**
 * Wire contracts of the search APIs under /v1 (embeddings, rerank, segment, classify, train, classifiers),
 * with the field names existing clients of this API family send and read. The limits here are the
 * documented ones: a request over them is refused with 422 and a message naming the limit.
 *
 * Request bodies are lenient like the original API and OpenAI's: a field this server does not know is
 * accepted (`looseObject`), never silently: the API layer forwards it to an upstream engine or names it in
 * the answer's `X-Options-Not-Applied` header.
 */
import * as v from 'valibot'
import { embeddingTasks, type EmbeddingTask } from '#content/vocabulary'
import { emptyAsNull, isStorableText, singleLine, unstorableTextMessage } from './common'

export const searchLimits = {
  /** Inputs of one classify or train request; documents of one rerank request. */
  maxInputs: 1024,
  /** Inputs of one embeddings request: OpenAI's limit, which the AI SDK's `embedMany` sends in one call. */
  maxEmbeddingInputs: 2048,
  /**
   * Tokens of one embeddings request, in inputs of the model's limit: the bound of 1,024 inputs at most that
   * long each, kept when the inputs went to 2,048 so that no request does more work than before.
   */
  maxEmbeddingRequestInputLimits: 1024,
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

export { embeddingTasks, type EmbeddingTask }

const text = v.pipe(v.string(), v.check(isStorableText, unstorableTextMessage))
const nonEmptyText = v.pipe(text, v.minLength(1, 'must not be empty'))

/** An input as a plain string or as `{text}`, read as its text. */
const textInput = v.union([
  nonEmptyText,
  v.pipe(
    v.looseObject({ text: nonEmptyText }),
    v.transform((o) => o.text),
  ),
])

/** An image: an http(s) URL, a `data:image/…;base64,` URI or bare base64, as the original API takes. */
const imageReference = v.pipe(
  v.string(),
  v.minLength(1, 'must not be empty'),
  v.check(
    (value) =>
      /^https?:\/\//i.test(value) || /^data:image\/[\w.+-]+;base64,/i.test(value) || /^[A-Za-z0-9+/=\s]+$/.test(value),
    'must be an http(s) URL, a data:image URI or base64',
  ),
)

/** An input or a document: a string, `{text}` or `{image}` (one of the two), extra fields kept for the answer. */
const textOrImage = v.union(
  [
    nonEmptyText,
    v.pipe(
      v.looseObject({ text: v.optional(nonEmptyText), image: v.optional(imageReference) }),
      v.check((o) => (o.text === undefined) !== (o.image === undefined), 'give text or image, one of the two'),
    ),
  ],
  'must be a text, {text} or {image}',
)
export type TextOrImage = string | { text?: string; image?: string; [field: string]: unknown }

const textOrImageList = (max: number, what: string) =>
  v.pipe(
    v.union([
      v.pipe(
        nonEmptyText,
        v.transform((s) => [s] as TextOrImage[]),
      ),
      v.array(textOrImage),
    ]),
    v.minLength(1, `must hold at least one ${what}`),
    v.maxLength(max, `must hold at most ${max} ${what}s (the limit per request)`),
  )

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
export type EmbeddingType = (typeof embeddingTypes)[number]

const embeddingType = v.picklist(embeddingTypes, `must be one of ${embeddingTypes.join(', ')}`)
/** One encoding, or several (each item's `embedding` is then an object with one entry per encoding). */
const embeddingTypeList = v.union(
  [embeddingType, v.pipe(v.array(embeddingType), v.minLength(1, 'must name at least one encoding'))],
  `must be one of ${embeddingTypes.join(', ')}, or a list of them`,
)

/** The fields /v1/embeddings reads; any other is accepted and reported as not applied (or forwarded upstream). */
export const embeddingsFields = [
  'model',
  'input',
  'task',
  'dimensions',
  'embedding_type',
  'encoding_type',
  'encoding_format',
  'normalized',
  'truncate',
  'late_chunking',
  'return_multivector',
  'user',
] as const

export const embeddingsBody = v.pipe(
  v.looseObject({
    model: modelName,
    input: textOrImageList(searchLimits.maxEmbeddingInputs, 'input'),
    task: v.optional(v.picklist(embeddingTasks, `must be one of ${embeddingTasks.join(', ')}`)),
    dimensions: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1))),
    /** The original API's name for the encoding. */
    embedding_type: v.optional(embeddingTypeList),
    /** LlamaIndex's name for it. */
    encoding_type: v.optional(embeddingTypeList),
    /** OpenAI's name for it (its SDK always sends one). */
    encoding_format: v.optional(v.picklist(['float', 'base64'], 'must be float or base64')),
    normalized: v.optional(v.boolean(), true),
    truncate: v.optional(v.boolean(), false),
    late_chunking: v.optional(v.boolean(), false),
    return_multivector: v.optional(v.boolean(), false),
    /** OpenAI's end-user id: accepted, not used (named in X-Options-Not-Applied). */
    user: v.optional(v.string()),
  }),
  v.check((body) => {
    const named = [body.embedding_type, body.encoding_type, body.encoding_format].filter((x) => x !== undefined)
    return new Set(named.map((x) => JSON.stringify(x))).size <= 1
  }, 'embedding_type, encoding_type and encoding_format name the same thing: give one, or the same value'),
)

const usageTotal = v.object({ total_tokens: v.number() })

/** A vector as floats, base64 of float32, packed bits, or (several encodings asked for) one entry per encoding. */
const singleEncoding = v.union([v.array(v.number()), v.string()])
const encodedVector = v.union([singleEncoding, v.record(v.picklist(embeddingTypes), singleEncoding)])

export const embeddingsAnswer = v.object({
  model: v.string(),
  object: v.literal('list'),
  data: v.array(
    v.object({
      object: v.literal('embedding'),
      index: v.number(),
      /** Absent with `return_multivector`, which answers `embeddings` instead. */
      embedding: v.optional(encodedVector),
      /** With `return_multivector`: one vector per token. */
      embeddings: v.optional(v.array(encodedVector)),
    }),
  ),
  usage: v.object({ total_tokens: v.number(), prompt_tokens: v.number() }),
})
export type EmbeddingsAnswer = v.InferOutput<typeof embeddingsAnswer>

/** The fields /v1/rerank reads. */
export const rerankFields = ['model', 'query', 'documents', 'top_n', 'return_documents', 'truncate'] as const

export const rerankBody = v.looseObject({
  model: modelName,
  query: nonEmptyText,
  documents: textOrImageList(searchLimits.maxInputs, 'document'),
  top_n: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1))),
  return_documents: v.optional(v.boolean(), true),
  truncate: v.optional(v.boolean(), false),
})

export const rerankAnswer = v.object({
  /** Cohere's answer id: the request id (`X-Request-Id`). */
  id: v.string(),
  model: v.string(),
  results: v.array(
    v.object({
      index: v.number(),
      relevance_score: v.number(),
      /** The document as sent: `{text}` for a string, the object itself (extra fields included) otherwise. */
      document: v.optional(v.looseObject({ text: v.optional(v.string()), image: v.optional(v.string()) })),
    }),
  ),
  usage: usageTotal,
  /** Cohere's `meta`: its API version and search units (a query with up to 100 documents is one). */
  meta: v.object({
    api_version: v.object({ version: v.string() }),
    billed_units: v.object({ search_units: v.number() }),
  }),
})
export type RerankAnswer = v.InferOutput<typeof rerankAnswer>

export const tokenizers = ['cl100k_base', 'o200k_base', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2'] as const
export type TokenizerName = (typeof tokenizers)[number]

const count = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1))

/** The fields /v1/segment reads; any other is accepted and named in X-Options-Not-Applied. */
export const segmentFields = [
  'content',
  'tokenizer',
  'return_tokens',
  'return_chunks',
  'max_chunk_length',
  'head',
  'tail',
] as const

export const segmentBody = v.pipe(
  v.looseObject({
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
export type SegmentAnswer = v.InferOutput<typeof segmentAnswer>

const classifierId = v.pipe(v.string(), v.uuid('must be a classifier id'))

const label = v.pipe(nonEmptyText, v.maxLength(256, 'must be at most 256 characters'))

/** The fields /v1/classify reads; any other is accepted and named in X-Options-Not-Applied. */
export const classifyFields = ['model', 'classifier_id', 'input', 'labels'] as const

export const classifyBody = v.pipe(
  v.looseObject({
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
export type ClassifyAnswer = v.InferOutput<typeof classifyAnswer>

export const classifierAccess = ['public', 'private'] as const

/** The fields /v1/train reads, and those of each example; any other is accepted and named as not applied. */
export const trainFields = ['model', 'classifier_id', 'access', 'num_iters', 'input', 'name'] as const

/** What a classifier is called, kept with it on the server (up to 60 characters; empty or null: no name). */
export const classifierName = v.pipe(
  emptyAsNull(singleLine(60)),
  v.description('A name for the classifier, up to 60 characters; empty or null leaves it unnamed.'),
)
export const trainExampleFields = ['text', 'label'] as const

export const trainBody = v.pipe(
  v.looseObject({
    model: v.optional(modelName),
    classifier_id: v.optional(classifierId),
    access: v.optional(v.picklist(classifierAccess, 'must be public or private')),
    name: v.optional(classifierName),
    num_iters: v.optional(
      v.pipe(count, v.maxValue(searchLimits.maxNumIters, `must be at most ${searchLimits.maxNumIters}`)),
      10,
    ),
    input: v.pipe(
      v.array(v.looseObject({ text: nonEmptyText, label })),
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
  name: v.nullable(v.string()),
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

export const renameClassifierBody = v.strictObject({ name: classifierName })

export const deleteClassifierAnswer = v.object({ classifier_id: v.string(), deleted: v.literal(true) })
