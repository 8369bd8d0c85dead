import { serverEnv, type ServerEnv } from '../../env'
import type { WebSearchEngine } from './engine'
import { createBuiltinSearch, type BuiltinSearch } from './builtin/site-search'
import { createUpstreamSearch } from './upstream'

const cache = new Map<string, WebSearchEngine>()

function cached<T extends WebSearchEngine>(settings: string[], build: () => T): T {
  const key = settings.join('\u0000')
  let engine = cache.get(key)
  if (!engine) cache.set(key, (engine = build()))
  return engine as T
}

/** The built-in engine over this site's pages at PUBLIC_BASE_URL. */
export function builtinSearch(env: ServerEnv = serverEnv()): BuiltinSearch {
  const baseUrl = env.PUBLIC_BASE_URL.replace(/\/$/, '')
  return cached(['builtin', baseUrl], () => createBuiltinSearch(baseUrl))
}

/** The SearXNG-style API at SEARCH_API_URL, waited for LLM_TIMEOUT_MS (deep search's setting, which it shares). */
export function upstreamSearch(env: ServerEnv = serverEnv()): WebSearchEngine {
  const baseUrl = env.SEARCH_API_URL
  if (!baseUrl) throw new Error('SEARCH_API_URL is not set')
  return cached(['upstream', baseUrl, String(env.LLM_TIMEOUT_MS)], () =>
    createUpstreamSearch({
      baseUrl: baseUrl.replace(/\/$/, ''),
      apiKey: undefined,
      timeoutMs: env.LLM_TIMEOUT_MS,
      fetch: globalThis.fetch,
    }),
  )
}

/** The engine SEARCH_ENGINE chooses for the search endpoint (`/s`). */
export function webSearchEngine(env: ServerEnv = serverEnv()): WebSearchEngine {
  return env.SEARCH_ENGINE === 'upstream' ? upstreamSearch(env) : builtinSearch(env)
}
