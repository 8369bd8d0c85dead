import { serverEnv, type ServerEnv } from '../../env'
import { createBm25Reranker } from '../inference/builtin/bm25'
import { createHashedEmbeddings } from '../inference/builtin/hashed-embeddings'
import type { RerankEngine } from '../inference/engines'
import { builtinSearch, upstreamSearch } from '../search/select'
import type { DeepSearchEngine } from './engine'

/** Share of the embedding cosine in the passage ranking, as in the built-in reranker of /v1/rerank. */
const RERANK_BLEND = 0.3

let reranker: RerankEngine | undefined
/** The built-in reranker ranks passages for both engines: offline, and fast enough for a streamed first chunk. */
const passageReranker = () =>
  (reranker ??= createBm25Reranker({ embeddings: createHashedEmbeddings(), blend: RERANK_BLEND }))

let chosen: { settings: string; engine: Promise<DeepSearchEngine> } | undefined

/** The deep-search engine DEEPSEARCH_ENGINE chooses; the upstream one's modules load only when chosen. */
export function deepSearchEngine(env: ServerEnv = serverEnv()): Promise<DeepSearchEngine> {
  const settings = [
    env.DEEPSEARCH_ENGINE,
    env.PUBLIC_BASE_URL,
    env.LLM_BASE_URL,
    env.LLM_API_KEY,
    env.LLM_MODEL,
    env.LLM_TIMEOUT_MS,
    env.SEARCH_API_URL,
  ].join('\u0000')
  if (chosen?.settings !== settings) chosen = { settings, engine: build(env) }
  return chosen.engine
}

async function build(env: ServerEnv): Promise<DeepSearchEngine> {
  if (env.DEEPSEARCH_ENGINE === 'upstream') {
    const { createUpstreamAgent } = await import('./upstream/agent')
    const connection = (baseUrl: string, apiKey: string | undefined) => ({
      baseUrl: baseUrl.replace(/\/$/, ''),
      apiKey,
      timeoutMs: env.LLM_TIMEOUT_MS,
      fetch: globalThis.fetch,
    })
    return createUpstreamAgent({
      llm: { ...connection(env.LLM_BASE_URL!, env.LLM_API_KEY), model: env.LLM_MODEL! },
      search: upstreamSearch(env),
      reranker: passageReranker(),
    })
  }
  const { createBuiltinAgent } = await import('./builtin/agent')
  return createBuiltinAgent({ search: builtinSearch(env), reranker: passageReranker() })
}
