import { resolve } from 'node:path'
import type { EmbeddingTask } from '#content/vocabulary'
import { textsOnly, type EmbeddingEngine, type RerankEngine } from '../engines'
import { dot } from '../unit-vector'
import { loadCrossEncoder, type LoadedCrossEncoder } from './cross-encoder'
import { embedTexts } from './embed'
import { readModelFiles, type ModelFiles } from './model-files'
import { loadModel, type LoadedModel } from './runtime'

export interface OnnxEngineOptions {
  /** Folder of local models; nothing is ever downloaded into it. */
  modelsDir: string
  /** The model's folder under `modelsDir` (see `./model-files.ts` for what it holds). */
  embeddingModel: string
}

export interface OnnxEngines {
  /** Absent for a cross-encoder, which only scores pairs. */
  embeddings?: EmbeddingEngine
  reranker: RerankEngine
}

/**
 * Engines over one local ONNX model folder (transformers.js on onnxruntime-node, CPU), by the model's family:
 *
 * - an embedding model (BERT, XLM-RoBERTa, …): mean-pooled token vectors; task adapters when the graph takes a
 *   `task_id` input and config.json lists them (`lora_adaptations`); per-token vectors for multi-vector
 *   output (ColBERT-style); its reranker is a bi-encoder (cosine of query and document vectors).
 * - a cross-encoder (`…ForSequenceClassification`): rerank only, each query–document pair read together.
 *
 * Building reads only the folder's config (a wrong folder fails here, naming the path); the library and the
 * model load on the first request, and a load that fails is tried again by the next one.
 *
 * `maxInputTokens` is the model's context in its own tokens, while the API layer counts cl100k_base tokens:
 * WordPiece and similar vocabularies usually need somewhat more tokens for the same text, so an input near the
 * limit may still be cut to the model's context here (its tail then does not count towards its vector).
 */
export function createOnnxEngines(options: OnnxEngineOptions): OnnxEngines {
  const files = readModelFiles(options.modelsDir, options.embeddingModel)
  const model = `onnx:${options.embeddingModel}`
  const modelsDir = resolve(options.modelsDir)
  if (files.family === 'cross-encoder') return { reranker: crossEncoderReranker(files, model, modelsDir) }

  const loaded = lazily(files, () => loadModel(files, modelsDir))
  const tasks = files.tasks as EmbeddingTask[]
  const embeddings: EmbeddingEngine = {
    kind: 'onnx',
    model,
    dimensions: files.hiddenSize,
    maxInputTokens: files.contextTokens,
    supportsLateChunking: true,
    tasks: { kind: 'adapters', tasks },
    multiVectorDimensions: files.hiddenSize,
    readsImages: false,
    async embed(inputs, { lateChunking, normalized, multiVector, task }) {
      const running = await loaded()
      const taskId = task ? tasks.indexOf(task) : -1
      const applies = taskId >= 0 && running.takesTaskId
      const result = await embedTexts(running, textsOnly(inputs), {
        lateChunking,
        normalized,
        tokenVectors: multiVector,
        // Without a task, a model with adapters runs its first one, as its own code does by default.
        taskId: applies ? taskId : 0,
      })
      return { model, vectors: result.vectors, multiVectors: result.tokenVectors, taskApplied: applies }
    },
  }

  const reranker: RerankEngine = {
    kind: 'onnx',
    model,
    maxInputTokens: files.contextTokens,
    readsImages: false,
    // Bi-encoder scoring: query and documents are embedded apart and compared by cosine, mapped from [-1, 1]
    // to [0, 1]. Cheaper and coarser than a cross-encoder, which reads query and document together.
    async rerank(query, documents) {
      const running = await loaded()
      const retrieval = (task: EmbeddingTask) => (tasks.includes(task) && running.takesTaskId ? tasks.indexOf(task) : 0)
      const [queryVector] = (
        await embedTexts(running, [query], { lateChunking: false, taskId: retrieval('retrieval.query') })
      ).vectors
      const { vectors } = await embedTexts(running, textsOnly(documents), {
        lateChunking: false,
        taskId: retrieval('retrieval.passage'),
      })
      const scores = vectors.map((vector) => Math.min(1, Math.max(0, (dot(queryVector, vector) + 1) / 2)))
      return { model, scores }
    },
  }

  return { embeddings, reranker }
}

function crossEncoderReranker(files: ModelFiles, model: string, modelsDir: string): RerankEngine {
  const loaded = lazily(files, () => loadCrossEncoder(files, modelsDir))
  return {
    kind: 'onnx',
    model,
    maxInputTokens: files.contextTokens,
    readsImages: false,
    async rerank(query, documents) {
      return { model, scores: await (await loaded()).score(query, textsOnly(documents)) }
    },
  }
}

/** Loads on first use; a failed load is not kept, so a model fixed on disk is picked up without a restart. */
function lazily<T extends LoadedModel | LoadedCrossEncoder>(
  files: ModelFiles,
  load: () => Promise<T>,
): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined
      const reason = error instanceof Error ? error.message : String(error)
      throw new Error(`onnx engine: could not load the model in ${files.dir}: ${reason}`, { cause: error })
    }))
}
