/**
 * The serving registry: the catalogue's models (`content/models.ts`, their API ids, aliases and capabilities)
 * joined with the serving configuration (`~/contracts/serving-config`), each served model with its own engine
 * instances. Built once per configuration; onnx folders are shared by the models they serve and load lazily,
 * as is the one use-lite encoder, and the onnx, use-lite and upstream modules are imported only when
 * configured, so the default build never loads ONNX Runtime or TensorFlow.js.
 */
import { models } from '#content/models'
import type { Model, ModelApi } from '#content/schemas'
import type { ApiCapability } from '#content/vocabulary'
import { servingConfigOf, type EngineSpec, type ServingSettings } from '~/contracts/serving-config'
import type { EmbeddingEngine, RerankEngine } from './engines'

/** Share of the embedding cosine in the built-in reranker's score; BM25 carries the rest. */
export const BUILTIN_RERANK_BLEND = 0.3

export interface ServedModel {
  /** The API id (the catalogue's slug): what answers name as their `model`. */
  id: string
  catalogue: Model
  api: ModelApi
  spec: EngineSpec
  /** What computes it, as the answers' engine header says: `builtin`, `onnx:<folder>`, `use-lite`, `upstream:<model>`. */
  engine: string
  embeddings?: EmbeddingEngine
  reranker?: RerankEngine
}

export interface Registry {
  /** Every catalogue model the search APIs know, served here or not, in catalogue order. */
  catalogue: Array<{ id: string; catalogue: Model; api: ModelApi; served?: ServedModel }>
  /** The served model a name (API id or alias) stands for, if this server serves it. */
  find(name: string): ServedModel | undefined
  /** Whether a name is a catalogue model's id or alias at all. */
  knows(name: string): boolean
}

export interface RegistrySettings extends ServingSettings {
  MODELS_DIR: string
  UPSTREAM_API_KEY?: string
  UPSTREAM_TIMEOUT_MS: number
  /** Other environment variables an upstream entry may name for its key (`api_key_env`). */
  secrets?: Record<string, string | undefined>
}

const apiModels = models.flatMap((model) => (model.api ? [{ id: model.slug, catalogue: model, api: model.api }] : []))

export async function buildRegistry(settings: RegistrySettings): Promise<Registry> {
  const config = servingConfigOf(settings)
  const byName = new Map<string, ServedModel>()
  const onnxFolders = new Map<string, Promise<import('./onnx').OnnxEngines>>()
  const shared: SharedEngines = { onnxFolders }
  const catalogue: Registry['catalogue'] = []
  for (const { id, catalogue: entry, api } of apiModels) {
    const named = config[id] ?? api.aliases.map((alias) => config[alias]).find(Boolean)
    const spec = named ?? config['*']
    const served = spec ? await serve(id, entry, api, spec, settings, shared) : undefined
    if (named && served && !served.embeddings && !served.reranker)
      throw new Error(`SERVED_MODELS: the onnx model in ${(named as { folder: string }).folder} cannot compute ${id}`)
    // A model the wildcard's engine cannot compute (an embedding model on a cross-encoder) is not served.
    const usable = served && (served.embeddings || served.reranker) ? served : undefined
    catalogue.push({ id, catalogue: entry, api, served: usable })
    if (usable) for (const name of [id, ...api.aliases]) byName.set(name, usable)
  }
  const known = new Set(apiModels.flatMap(({ id, api }) => [id, ...api.aliases]))
  return { catalogue, find: (name) => byName.get(name), knows: (name) => known.has(name) }
}

/** Engine instances one registry shares between the models they serve. */
interface SharedEngines {
  onnxFolders: Map<string, Promise<import('./onnx').OnnxEngines>>
  useLite?: Promise<import('./use-lite').UseLiteEngines>
}

async function serve(
  id: string,
  entry: Model,
  api: ModelApi,
  spec: EngineSpec,
  settings: RegistrySettings,
  shared: SharedEngines,
): Promise<ServedModel> {
  const { onnxFolders } = shared
  const wants = (capability: ApiCapability) => api.capabilities.includes(capability)
  const embeds = wants('embeddings') || wants('classify')
  switch (spec.engine) {
    case 'builtin': {
      const { createHashedEmbeddings } = await import('./builtin/hashed-embeddings')
      const { createBm25Reranker } = await import('./builtin/bm25')
      const embeddings = createHashedEmbeddings({
        dimensions: entry.dimensions ?? 1024,
        seedName: id,
        multiVectorDimensions: api.multiVectorDimensions,
      })
      // A reranker's cosine comes from hashed vectors of the usual width, seeded with its own id.
      const reranker = wants('rerank')
        ? createBm25Reranker({
            embeddings: entry.dimensions ? embeddings : createHashedEmbeddings({ seedName: id }),
            blend: BUILTIN_RERANK_BLEND,
          })
        : undefined
      return {
        id,
        catalogue: entry,
        api,
        spec,
        engine: 'builtin',
        embeddings: embeds ? embeddings : undefined,
        reranker,
      }
    }
    case 'onnx': {
      let loading = onnxFolders.get(spec.folder)
      if (!loading) {
        loading = import('./onnx').then(({ createOnnxEngines }) =>
          createOnnxEngines({ modelsDir: settings.MODELS_DIR, embeddingModel: spec.folder }),
        )
        onnxFolders.set(spec.folder, loading)
      }
      const engines = await loading
      return {
        id,
        catalogue: entry,
        api,
        spec,
        engine: `onnx:${spec.folder}`,
        embeddings: embeds ? engines.embeddings : undefined,
        reranker: wants('rerank') ? engines.reranker : undefined,
      }
    }
    case 'use-lite': {
      // One encoder (one thread, one copy of the weights) for every model it serves.
      const engines = await (shared.useLite ??= import('./use-lite').then(({ createUseLiteEngines }) =>
        createUseLiteEngines(),
      ))
      return {
        id,
        catalogue: entry,
        api,
        spec,
        engine: 'use-lite',
        embeddings: embeds ? engines.embeddings : undefined,
        reranker: wants('rerank') ? engines.reranker : undefined,
      }
    }
    case 'upstream': {
      const { createUpstreamEngines } = await import('./upstream')
      const apiKey = spec.api_key_env ? settings.secrets?.[spec.api_key_env] : settings.UPSTREAM_API_KEY
      const engines = createUpstreamEngines({
        baseUrl: spec.url,
        apiKey,
        timeoutMs: settings.UPSTREAM_TIMEOUT_MS,
        model: spec.model,
      })
      return {
        id,
        catalogue: entry,
        api,
        spec,
        engine: `upstream${spec.model ? `:${spec.model}` : ''}`,
        embeddings: embeds ? engines.embeddings : undefined,
        reranker: wants('rerank') ? engines.reranker : undefined,
      }
    }
  }
}
