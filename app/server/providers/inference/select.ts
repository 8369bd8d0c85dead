/**
 * The engines this server computes with, chosen by INFERENCE_ENGINE (see README). The onnx and upstream
 * modules are imported only when chosen, so the default build never loads ONNX Runtime.
 */
import { serverEnv, type ServerEnv } from '../../env'
import type { EmbeddingEngine, RerankEngine } from './engines'

export interface Engines {
  embeddings: EmbeddingEngine
  reranker: RerankEngine
}

/** Share of the embedding cosine in the built-in reranker's score; BM25 carries the rest. */
const BUILTIN_RERANK_BLEND = 0.3

let chosen: { settings: string; engines: Promise<Engines> } | undefined

export function engines(env: ServerEnv = serverEnv()): Promise<Engines> {
  const settings = [
    env.INFERENCE_ENGINE,
    env.MODELS_DIR,
    env.ONNX_EMBEDDING_MODEL,
    env.UPSTREAM_API_BASE_URL,
    env.UPSTREAM_API_KEY,
    env.UPSTREAM_TIMEOUT_MS,
  ].join('\u0000')
  if (chosen?.settings !== settings) {
    const loading = build(env)
    // A model that failed to load is tried again by the next request, not remembered as broken.
    loading.catch(() => {
      if (chosen?.engines === loading) chosen = undefined
    })
    chosen = { settings, engines: loading }
  }
  return chosen.engines
}

async function build(env: ServerEnv): Promise<Engines> {
  switch (env.INFERENCE_ENGINE) {
    case 'onnx': {
      const { createOnnxEngines } = await import('./onnx')
      return createOnnxEngines({ modelsDir: env.MODELS_DIR, embeddingModel: env.ONNX_EMBEDDING_MODEL! })
    }
    case 'upstream': {
      const { createUpstreamEngines } = await import('./upstream')
      return createUpstreamEngines({
        baseUrl: env.UPSTREAM_API_BASE_URL!,
        apiKey: env.UPSTREAM_API_KEY,
        timeoutMs: env.UPSTREAM_TIMEOUT_MS,
      })
    }
    default: {
      const { createHashedEmbeddings } = await import('./builtin/hashed-embeddings')
      const { createBm25Reranker } = await import('./builtin/bm25')
      const embeddings = createHashedEmbeddings()
      return { embeddings, reranker: createBm25Reranker({ embeddings, blend: BUILTIN_RERANK_BLEND }) }
    }
  }
}
