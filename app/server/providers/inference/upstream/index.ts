import type { EmbeddingEngine, RerankEngine } from '../engines'
import { readEmbeddings, readScores } from './answers'
import { postJson, type UpstreamConnection } from './client'

export interface UpstreamEngineOptions {
  /** The compatible API's base URL (its /v1/embeddings and /v1/rerank are below it). */
  baseUrl: string
  apiKey?: string
  timeoutMs: number
  /** The upstream's name for the served model; unset: the name the caller sent is forwarded. */
  model?: string
  /** For tests and instrumentation; the global fetch otherwise. */
  fetch?: typeof fetch
}

/** Longest input the upstream takes, in metering tokens (the API family's documented 8192). */
const maxInputTokens = 8192

/**
 * Embeddings and rerank scores forwarded to a compatible upstream API with our key. What this server cannot
 * judge passes through untouched: images, `task`, `dimensions`, `normalized`, `late_chunking`,
 * `return_multivector` and any field of the request it does not read, so a deployment fronting the original
 * API loses nothing. Only the encoding is ours: floats are asked for, checked and encoded as the caller
 * asked. Its refusals become `EngineRefused` (see `./refusals.ts`).
 *
 * `dimensions` depends on the model, so it is not known before an answer: it reads as the dimension of the
 * latest answer (0 before the first); callers check a requested `dimensions` against the answer itself.
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
  const nameFor = (requested: string | undefined) => options.model ?? requested ?? ''

  const embeddings: EmbeddingEngine = {
    kind: 'upstream',
    model: options.model,
    get dimensions() {
      return latestDimensions
    },
    maxInputTokens,
    supportsLateChunking: true,
    tasks: { kind: 'forwarded' },
    multiVectorDimensions: 0,
    readsImages: true,
    async embed(inputs, embedOptions) {
      const { requestedModel, task, lateChunking, normalized, multiVector, dimensions, passThrough } = embedOptions
      const name = nameFor(requestedModel)
      const json = await postJson(connection, '/v1/embeddings', {
        ...passThrough,
        model: name,
        input: inputs,
        ...(task && { task }),
        ...(lateChunking && { late_chunking: true }),
        ...(dimensions !== undefined && { dimensions }),
        ...(multiVector && { return_multivector: true }),
        embedding_type: 'float',
        normalized: normalized !== false,
      })
      const answer = readEmbeddings(json, inputs.length, { normalized: normalized !== false, multiVector })
      latestDimensions = answer.vectors[0]?.length ?? latestDimensions
      return {
        model: answer.model ?? name,
        vectors: answer.vectors,
        multiVectors: answer.multiVectors,
        taskApplied: task !== undefined,
      }
    },
  }

  const reranker: RerankEngine = {
    kind: 'upstream',
    model: options.model,
    maxInputTokens,
    readsImages: true,
    async rerank(query, documents, rerankOptions = {}) {
      const name = nameFor(rerankOptions.requestedModel)
      // top_n = all: every document gets a score, whatever the upstream's default.
      const json = await postJson(connection, '/v1/rerank', {
        ...rerankOptions.passThrough,
        model: name,
        query,
        documents,
        top_n: documents.length,
        return_documents: false,
      })
      const { model, scores } = readScores(json, documents.length)
      return { model: model ?? name, scores }
    },
  }

  return { embeddings, reranker }
}
