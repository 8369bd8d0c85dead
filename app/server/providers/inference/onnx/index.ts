import { resolve } from 'node:path'
import type { EmbeddingEngine, RerankEngine } from '../engines'
import { dot } from '../unit-vector'
import { embedTexts } from './embed'
import { readModelFiles } from './model-files'
import { loadModel, type LoadedModel } from './runtime'

export interface OnnxEngineOptions {
  /** Folder of local models; nothing is ever downloaded into it. */
  modelsDir: string
  /** The embedding model's folder under `modelsDir` (see `./model-files.ts` for what it holds). */
  embeddingModel: string
}

/**
 * Embeddings and rerank scores from a local ONNX embedding model (transformers.js on onnxruntime-node, CPU).
 * Building them reads only the model's config (a wrong folder fails here, naming the path); the library and
 * the model load on the first request. The caller's `task` is not used: a plain embedding model has no task
 * adapters, and answering `onnx:<model>` tells the caller which model it got.
 *
 * `maxInputTokens` is the model's context in its own tokens, while the API layer counts cl100k_base tokens:
 * WordPiece and similar vocabularies usually need somewhat more tokens for the same text, so an input near the
 * limit may still be cut to the model's context here (its tail then does not count towards its vector).
 */
export function createOnnxEngines(options: OnnxEngineOptions): { embeddings: EmbeddingEngine; reranker: RerankEngine } {
  const files = readModelFiles(options.modelsDir, options.embeddingModel)
  const model = `onnx:${options.embeddingModel}`
  let loading: Promise<LoadedModel> | undefined
  const loaded = () =>
    (loading ??= loadModel(files, resolve(options.modelsDir)).catch((error: unknown) => {
      // Not cached: a model fixed on disk is picked up by the next request without a restart.
      loading = undefined
      const reason = error instanceof Error ? error.message : String(error)
      throw new Error(`onnx engine: could not load the model in ${files.dir}: ${reason}`, { cause: error })
    }))

  const embeddings: EmbeddingEngine = {
    kind: 'onnx',
    dimensions: files.hiddenSize,
    maxInputTokens: files.contextTokens,
    supportsLateChunking: true,
    async embed(texts, { lateChunking }) {
      return { model, vectors: await embedTexts(await loaded(), texts, lateChunking) }
    },
  }

  const reranker: RerankEngine = {
    kind: 'onnx',
    maxInputTokens: files.contextTokens,
    // Bi-encoder scoring: query and documents are embedded apart and compared by cosine, mapped from [-1, 1]
    // to [0, 1]. Cheaper and coarser than a cross-encoder, which reads query and document together.
    async rerank(query, documents) {
      const [queryVector, ...documentVectors] = await embedTexts(await loaded(), [query, ...documents], false)
      const scores = documentVectors.map((vector) => Math.min(1, Math.max(0, (dot(queryVector, vector) + 1) / 2)))
      return { model, scores }
    },
  }

  return { embeddings, reranker }
}
