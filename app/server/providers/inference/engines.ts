import type { EmbeddingTask } from '~/contracts/search'

/**
 * What the search APIs compute with. One interface per capability; the configured engine (`builtin`,
 * `onnx` or `upstream`, see `./select.ts`) implements it. Engines only compute: keys, limits, metering
 * and the wire shapes belong to the API layer (`app/server/api/search/`), so every engine is charged,
 * limited and answered the same way. An engine that must refuse in its caller's words (an upstream's 422,
 * its rate limit, its outage) throws `EngineRefused` from `../domain/refusals`.
 */

export type { EmbeddingTask }

export interface EmbedOptions {
  /** The model the caller asked for; an upstream forwards it, a local engine answers with its own. */
  requestedModel: string
  task: EmbeddingTask | undefined
  /** Embed the inputs as consecutive chunks of one document, each vector aware of its neighbours. */
  lateChunking: boolean
}

export interface Embeddings {
  /** The model that really computed the vectors, named honestly in the answer's `model` field. */
  model: string
  /** One unit-length (L2-normalised) vector per input, all of the engine's full dimension. */
  vectors: Float32Array[]
}

export interface EmbeddingEngine {
  /** Which implementation this is, for logs and the README's table. */
  readonly kind: 'builtin' | 'onnx' | 'upstream'
  /** The model a local engine answers with, known before any call (an upstream's is known from its answers). */
  readonly model?: string
  /** Length of the vectors `embed` returns; callers may ask for a prefix (`dimensions`). */
  readonly dimensions: number
  /** Longest single input, in metering tokens (cl100k_base); longer inputs are refused or truncated by the API layer. */
  readonly maxInputTokens: number
  /** Whether `lateChunking: true` is honoured; the API refuses it with a 422 otherwise, never ignores it. */
  readonly supportsLateChunking: boolean
  embed(texts: string[], options: EmbedOptions): Promise<Embeddings>
}

export interface Relevance {
  model: string
  /** One score in [0, 1] per document, in the documents' order (higher is more relevant). */
  scores: number[]
}

export interface RerankEngine {
  readonly kind: 'builtin' | 'onnx' | 'upstream'
  readonly model?: string
  readonly maxInputTokens: number
  rerank(query: string, documents: string[], options: { requestedModel: string }): Promise<Relevance>
}
