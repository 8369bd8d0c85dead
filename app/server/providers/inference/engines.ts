import type { EmbeddingTask } from '#content/vocabulary'

/**
 * What the search APIs compute with. One interface per capability; each served model's engine instance
 * (`builtin`, `onnx`, `use-lite` or `upstream`, see `./registry.ts`) implements it. Engines only compute: keys, limits,
 * metering and the wire shapes belong to the API layer (`app/server/api/search/`), so every engine is
 * charged, limited and answered the same way. An engine that must refuse in its caller's words (an
 * upstream's 422, its rate limit, its outage) throws `EngineRefused` from `../domain/refusals`.
 */

export type { EmbeddingTask }

/** Which implementation an engine is, for logs, headers and the README's table. */
export type EngineKind = 'builtin' | 'onnx' | 'use-lite' | 'upstream'

/** One input: a text, or an image (an http(s) URL, a data URI or bare base64) for engines that read images. */
export type EmbedInput = string | { image: string }

export interface EmbedOptions {
  /** The name the caller sent (an alias included): an upstream without a configured model name forwards it. */
  requestedModel?: string
  task: EmbeddingTask | undefined
  /** Embed the inputs as consecutive chunks of one document, each vector aware of its neighbours. */
  lateChunking: boolean
  /** false: the raw vectors at the model's own scale; otherwise unit length. */
  normalized?: boolean
  /** Also answer one vector per token (ColBERT-style), `multiVectorDimensions` wide. */
  multiVector?: boolean
  /** Asked-for prefix length: an upstream computes it there; local engines answer full vectors. */
  dimensions?: number
  /** Fields of the caller's request this server does not read, for an upstream to judge (never for local engines). */
  passThrough?: Record<string, unknown>
}

export interface Embeddings {
  /** What really computed the vectors (the engine and its model), for the answer's engine header and classifiers. */
  model: string
  /** One vector per input: unit length unless `normalized: false` asked for the raw ones. */
  vectors: Float32Array[]
  /** With `multiVector`: per input, one vector per token. */
  multiVectors?: Float32Array[][]
  /** Whether the `task` asked for changed the vectors (false: the model has no adapter for it). */
  taskApplied: boolean
}

/** How an engine treats `task`: applies the adapters it has, or forwards every task (an upstream judges). */
export type TaskSupport = { kind: 'adapters'; tasks: readonly EmbeddingTask[] } | { kind: 'forwarded' }

export interface EmbeddingEngine {
  /** Which implementation this is, for logs, headers and the README's table. */
  readonly kind: EngineKind
  /** The model a local engine answers with, known before any call (an upstream's is known from its answers). */
  readonly model?: string
  /** Length of the vectors `embed` returns; callers may ask for a prefix (`dimensions`). 0: known from answers. */
  readonly dimensions: number
  /** Longest single input, in metering tokens (cl100k_base); longer inputs are refused or truncated by the API layer. */
  readonly maxInputTokens: number
  /** Whether `lateChunking: true` is honoured; the API refuses it with a 422 otherwise, never ignores it. */
  readonly supportsLateChunking: boolean
  readonly tasks: TaskSupport
  /** Width of per-token vectors; undefined: no multi-vector output (refused with 422). */
  readonly multiVectorDimensions?: number
  /** Whether `{image}` inputs are read (an upstream forwards them for its model to judge). */
  readonly readsImages: boolean
  embed(inputs: EmbedInput[], options: EmbedOptions): Promise<Embeddings>
}

/** A rerank document: a text, or an image for multimodal rerankers. */
export type RerankDocument = string | { image: string }

export interface Relevance {
  model: string
  /** One score in [0, 1] per document, in the documents' order (higher is more relevant). */
  scores: number[]
}

export interface RerankOptions {
  requestedModel?: string
  /** Fields of the caller's request this server does not read, for an upstream to judge. */
  passThrough?: Record<string, unknown>
}

export interface RerankEngine {
  readonly kind: EngineKind
  readonly model?: string
  readonly maxInputTokens: number
  readonly readsImages: boolean
  rerank(query: string, documents: RerankDocument[], options?: RerankOptions): Promise<Relevance>
}

/** Only texts: what a local engine that reads no images is handed (the API layer refused images before). */
export function textsOnly(inputs: Array<string | { image: string }>): string[] {
  return inputs.map((input) => {
    if (typeof input !== 'string')
      throw new Error('this engine reads no images: the API layer should have refused them')
    return input
  })
}
