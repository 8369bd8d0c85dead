import type { EmbeddingEngine, RerankEngine } from '../engines'
import { readEmbeddings, readScores } from './answers'
import { postJson, type UpstreamConnection } from './client'

export interface UpstreamEngineOptions {
  /** The compatible API's base URL (its /v1/embeddings and /v1/rerank are below it). */
  baseUrl: string
  apiKey?: string
  timeoutMs: number
  /** For tests and instrumentation; the global fetch otherwise. */
  fetch?: typeof fetch
}

/** Longest input the upstream takes, in metering tokens (the API family's documented 8192). */
const maxInputTokens = 8192

/**
 * Embeddings and rerank scores forwarded to a compatible upstream API, with the caller's model, task and
 * late chunking, and our key. Its refusals become `EngineRefused` (see `./refusals.ts`).
 *
 * `dimensions` depends on the model the caller names, so it is not known before an answer: it reads as the
 * dimension of the latest answer (0 before the first). Callers checking a requested `dimensions` should check
 * it against the vectors of the answer itself.
 */
export function createUpstreamEngines(options: UpstreamEngineOptions): {
  embeddings: EmbeddingEngine
  reranker: RerankEngine
} {
  const connection: UpstreamConnection = {
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    apiKey: options.apiKey || undefined,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  }
  let latestDimensions = 0

  const embeddings: EmbeddingEngine = {
    kind: 'upstream',
    get dimensions() {
      return latestDimensions
    },
    maxInputTokens,
    supportsLateChunking: true,
    async embed(texts, { requestedModel, task, lateChunking }) {
      const json = await postJson(connection, '/v1/embeddings', {
        model: requestedModel,
        input: texts,
        ...(task && { task }),
        ...(lateChunking && { late_chunking: true }),
        embedding_type: 'float',
        normalized: true,
      })
      const { model, vectors } = readEmbeddings(json, texts.length)
      latestDimensions = vectors[0]?.length ?? latestDimensions
      return { model: model ?? requestedModel, vectors }
    },
  }

  const reranker: RerankEngine = {
    kind: 'upstream',
    maxInputTokens,
    async rerank(query, documents, { requestedModel }) {
      // top_n = all: every document gets a score, whatever the upstream's default.
      const json = await postJson(connection, '/v1/rerank', {
        model: requestedModel,
        query,
        documents,
        top_n: documents.length,
        return_documents: false,
      })
      const { model, scores } = readScores(json, documents.length)
      return { model: model ?? requestedModel, scores }
    },
  }

  return { embeddings, reranker }
}
