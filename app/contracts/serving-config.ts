/**
 * The serving configuration: which catalogue models the search APIs serve, each with its engine instance.
 * `SERVED_MODELS` holds it as JSON (an environment setting, so the edge build reads it too); keys are API ids or aliases of the catalogue, and
 * `"*"` stands for every catalogue model not named (absent: those are not served):
 *
 *   {"reranker-v2-base-multilingual": {"engine": "onnx", "folder": "cross-encoder"},
 *    "clip-v2": {"engine": "upstream", "url": "https://api.example.com", "model": "jina-clip-v2"},
 *    "embeddings-v2-base-en": {"engine": "use-lite"},
 *    "*": {"engine": "builtin"}}
 *
 * Unset, the older settings are the simple case: every catalogue model on INFERENCE_ENGINE (the onnx engine on
 * ONNX_EMBEDDING_MODEL, the upstream on UPSTREAM_API_BASE_URL, forwarding the name the caller sent).
 */
import * as v from 'valibot'
import { models } from '#content/models'

const folder = v.pipe(v.string(), v.regex(/^[\w.-]+(\/[\w.-]+)?$/, 'must be a folder name under MODELS_DIR'))
const envName = v.pipe(v.string(), v.regex(/^[A-Z][A-Z0-9_]*$/, 'must name an environment variable'))

export const engineSpec = v.variant(
  'engine',
  [
    v.strictObject({ engine: v.literal('builtin') }),
    v.strictObject({ engine: v.literal('onnx'), folder }),
    /** The Universal Sentence Encoder Lite shipped in an npm package (providers/inference/use-lite). */
    v.strictObject({ engine: v.literal('use-lite') }),
    v.strictObject({
      engine: v.literal('upstream'),
      url: v.pipe(v.string(), v.url('must be a URL')),
      /** The upstream's name for the model; unset: the name the caller sent. */
      model: v.optional(v.pipe(v.string(), v.minLength(1))),
      /** Which environment variable holds the upstream's key; unset: UPSTREAM_API_KEY. */
      api_key_env: v.optional(envName),
    }),
  ],
  'must be builtin, onnx, use-lite or upstream',
)
export type EngineSpec = v.InferOutput<typeof engineSpec>

export const servingConfig = v.record(
  v.pipe(v.string(), v.regex(/^(\*|[a-z0-9][a-z0-9.-]*)$/, 'must be a model id, an alias or *')),
  engineSpec,
)
export type ServingConfig = v.InferOutput<typeof servingConfig>

export class ServingConfigError extends Error {}

/** The settings the serving configuration is read from (a part of the server's environment). */
export interface ServingSettings {
  SERVED_MODELS?: string
  INFERENCE_ENGINE: 'builtin' | 'onnx' | 'use-lite' | 'upstream'
  ONNX_EMBEDDING_MODEL?: string
  UPSTREAM_API_BASE_URL?: string
}

/** The configuration in force: SERVED_MODELS parsed and checked, or the simple case of INFERENCE_ENGINE. */
export function servingConfigOf(env: ServingSettings): ServingConfig {
  if (env.SERVED_MODELS) return parseServingConfig(env.SERVED_MODELS)
  switch (env.INFERENCE_ENGINE) {
    case 'onnx':
      return { '*': { engine: 'onnx', folder: env.ONNX_EMBEDDING_MODEL! } }
    case 'use-lite':
      return { '*': { engine: 'use-lite' } }
    case 'upstream':
      return { '*': { engine: 'upstream', url: env.UPSTREAM_API_BASE_URL! } }
    default:
      return { '*': { engine: 'builtin' } }
  }
}

/** The setting's JSON, checked; a problem throws naming SERVED_MODELS and the entry at fault. */
export function parseServingConfig(setting: string): ServingConfig {
  let json: unknown
  try {
    json = JSON.parse(setting)
  } catch {
    throw new ServingConfigError('SERVED_MODELS is not valid JSON')
  }
  const parsed = v.safeParse(servingConfig, json)
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? 'the setting'}: ${issue.message}`)
    throw new ServingConfigError(`SERVED_MODELS: ${problems.join('; ')}`)
  }
  const known = new Set(models.flatMap((model) => (model.api ? [model.slug, ...model.api.aliases] : [])))
  const unknown = Object.keys(parsed.output).filter((name) => name !== '*' && !known.has(name))
  if (unknown.length > 0)
    throw new ServingConfigError(
      `SERVED_MODELS: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not in the model catalogue (its API ids: ${models
        .filter((model) => model.api)
        .map((model) => model.slug)
        .join(', ')})`,
    )
  return parsed.output
}
