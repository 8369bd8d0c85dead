/**
 * The server's environment, parsed with valibot. Server-only: the build refuses to put this file (or
 * anything under app/server) in a browser bundle. The variables, their rules and their documentation are
 * declared once, in env-settings.ts; what holds across variables is checked here.
 */
import * as v from 'valibot'
import { parseServingConfig, ServingConfigError } from '../contracts/serving-config'
import { schemasOf } from './env-rules'
import { envSettings } from './env-settings'
import { currentRequest } from './request-context'
import { runtimeProblems } from './runtime'

/** Built on first use: most processes that import this file (tests, tools) never parse the environment. */
const buildEnvSchema = () => v.object(schemasOf(envSettings()))

let envSchemaCache: ReturnType<typeof buildEnvSchema> | undefined
export const envSchema = () => (envSchemaCache ??= buildEnvSchema())
export type ServerEnv = Omit<
  v.InferOutput<ReturnType<typeof buildEnvSchema>>,
  'PUBLIC_BASE_URL' | 'PUBLIC_API_BASE_URL'
> & {
  PUBLIC_BASE_URL: string
  PUBLIC_API_BASE_URL: string
}

export class ConfigError extends Error {}

/** Parses the environment; a bad value throws naming the variable, so start-up stops with a clear message. */
export function parseEnv(source: Record<string, string | undefined>): ServerEnv {
  const known = Object.fromEntries(
    Object.keys(envSchema().entries)
      .map((k) => [k, source[k]])
      .filter(([, val]) => val !== undefined),
  )
  const result = v.safeParse(envSchema(), known, { abortPipeEarly: true })
  if (result.success) {
    const env = result.output
    if (env.INFERENCE_ENGINE === 'upstream' && !env.UPSTREAM_API_BASE_URL)
      throw new ConfigError('Invalid environment: INFERENCE_ENGINE=upstream needs UPSTREAM_API_BASE_URL')
    if (env.INFERENCE_ENGINE === 'onnx' && !env.ONNX_EMBEDDING_MODEL && !env.SERVED_MODELS)
      throw new ConfigError('Invalid environment: INFERENCE_ENGINE=onnx needs ONNX_EMBEDDING_MODEL')
    if (env.SERVED_MODELS) {
      try {
        parseServingConfig(env.SERVED_MODELS)
      } catch (error) {
        if (error instanceof ServingConfigError) throw new ConfigError(`Invalid environment: ${error.message}`)
        throw error
      }
    }
    if (env.DEEPSEARCH_ENGINE === 'upstream' && !(env.LLM_BASE_URL && env.LLM_MODEL && env.SEARCH_API_URL))
      throw new ConfigError(
        'Invalid environment: DEEPSEARCH_ENGINE=upstream needs LLM_BASE_URL, LLM_MODEL and SEARCH_API_URL',
      )
    if (env.SEARCH_ENGINE === 'upstream' && !env.SEARCH_API_URL)
      throw new ConfigError('Invalid environment: SEARCH_ENGINE=upstream needs SEARCH_API_URL')
    if (!env.STRIPE_SECRET_KEY !== !env.STRIPE_WEBHOOK_SECRET)
      throw new ConfigError(
        'Invalid environment: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together, or neither (the sandbox)',
      )
    if (env.STRIPE_SECRET_KEY && env.PAYMENTS_SANDBOX === 'on')
      throw new ConfigError(
        'Invalid environment: PAYMENTS_SANDBOX=on runs the test-mode sandbox instead of Stripe: unset it or the STRIPE_* keys',
      )
    if (env.PASSWORD_MAX_LENGTH !== undefined && env.PASSWORD_MAX_LENGTH < env.PASSWORD_MIN_LENGTH)
      throw new ConfigError('Invalid environment: PASSWORD_MAX_LENGTH is below PASSWORD_MIN_LENGTH')
    const publicBaseUrl = env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`
    const parsed = {
      ...env,
      PUBLIC_BASE_URL: publicBaseUrl,
      PUBLIC_API_BASE_URL: (env.PUBLIC_API_BASE_URL ?? publicBaseUrl).replace(/\/$/, ''),
    }
    const missing = runtimeProblems(parsed)
    if (missing.length) throw new ConfigError(`Invalid environment: ${missing.join('; ')}`)
    return parsed
  }
  const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '?'} ${issue.message}`)
  throw new ConfigError(`Invalid environment: ${problems.join('; ')}`)
}

let cached: { source: Record<string, string | undefined>; snapshot: string; env: ServerEnv } | undefined

/**
 * Reads the environment per request (edge runtimes bind it late); parses again only when it changed.
 * Inside a request the answer is the one read when it started, so the many calls one request makes
 * cost a lookup instead of a pass over every variable.
 */
export function serverEnv(source: Record<string, string | undefined> = globalThis.process?.env ?? {}): ServerEnv {
  if (source === globalThis.process?.env) {
    const scoped = currentRequest()?.env
    if (scoped) return scoped
  }
  const snapshot = Object.keys(envSchema().entries)
    .map((k) => source[k] ?? '')
    .join('\u0000')
  if (cached?.source === source && cached.snapshot === snapshot) return cached.env
  const env = parseEnv(source)
  cached = { source, snapshot, env }
  return env
}
