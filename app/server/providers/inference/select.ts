/**
 * The serving registry in force, built from the environment (see README "Serving models") and rebuilt when
 * the settings change (tests change them between cases); and the served model a request names.
 */
import type { ApiCapability } from '#content/vocabulary'
import { InvalidInput } from '../../domain/refusals'
import { serverEnv, type ServerEnv } from '../../env'
import type { EmbeddingEngine, RerankEngine } from './engines'
import { buildRegistry, type Registry, type ServedModel } from './registry'

let chosen: { settings: string; registry: Promise<Registry> } | undefined

export function servingRegistry(env: ServerEnv = serverEnv()): Promise<Registry> {
  // An upstream entry's `api_key_env` names a variable of the process's environment.
  const secrets = globalThis.process?.env ?? {}
  const settings = [
    env.SERVED_MODELS,
    env.INFERENCE_ENGINE,
    env.MODELS_DIR,
    env.ONNX_EMBEDDING_MODEL,
    env.UPSTREAM_API_BASE_URL,
    env.UPSTREAM_API_KEY,
    env.UPSTREAM_TIMEOUT_MS,
  ].join('\u0000')
  if (chosen?.settings !== settings) {
    const loading = buildRegistry({ ...env, secrets })
    // A model folder that failed to load is tried again by the next request, not remembered as broken.
    loading.catch(() => {
      if (chosen?.registry === loading) chosen = undefined
    })
    chosen = { settings, registry: loading }
  }
  return chosen.registry
}

/** What each capability reads from a served model. */
const computes: Record<ApiCapability, (model: ServedModel) => boolean> = {
  embeddings: (model) => model.api.capabilities.includes('embeddings') && Boolean(model.embeddings),
  classify: (model) => model.api.capabilities.includes('classify') && Boolean(model.embeddings),
  rerank: (model) => Boolean(model.reranker),
}

/**
 * The served model `name` (an API id or alias) stands for, able to compute `capability`; otherwise a 422 on
 * `loc` naming the models this server serves for it.
 */
export async function servedModel(
  name: string,
  capability: ApiCapability,
  loc: Array<string | number> = ['body', 'model'],
): Promise<ServedModel> {
  const registry = await servingRegistry()
  const served = registry.find(name)
  if (served && computes[capability](served)) return served
  const offered = registry.catalogue.flatMap(({ served: model }) =>
    model && computes[capability](model) ? [model.id] : [],
  )
  const why = !registry.knows(name)
    ? 'is not a model of the catalogue'
    : served
      ? `does not do ${capability}`
      : 'is not served by this server'
  const list = offered.length > 0 ? `: this server serves ${offered.join(', ')}` : ': this server serves none for it'
  throw new InvalidInput([{ loc, msg: `${why}${list}`, type: 'unknown_model' }])
}

/**
 * The engines of one served model, and an embedding engine that computes each call with the model its
 * `requestedModel` names (bulk jobs name theirs per job).
 */
export async function engines(): Promise<{ embeddings: EmbeddingEngine; reranker: RerankEngine | undefined }> {
  const registry = await servingRegistry()
  const first = registry.catalogue.find(({ served }) => served?.embeddings)?.served
  const reranker = registry.catalogue.find(({ served }) => served?.reranker)?.served?.reranker
  const fallback = first?.embeddings
  const routed: EmbeddingEngine = {
    kind: fallback?.kind ?? 'builtin',
    dimensions: fallback?.dimensions ?? 0,
    maxInputTokens: fallback?.maxInputTokens ?? 8192,
    supportsLateChunking: false,
    tasks: { kind: 'adapters', tasks: [] },
    readsImages: false,
    async embed(inputs, options) {
      const model = await servedModel(options.requestedModel ?? first?.id ?? '', 'embeddings')
      return model.embeddings!.embed(inputs, options)
    },
  }
  return { embeddings: routed, reranker }
}
