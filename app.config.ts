/**
 * The product's one typed configuration: brand, locales, the spec's constants (§9) and the
 * environment, parsed with valibot. Rebranding the site means editing `brand` only.
 */
import * as v from 'valibot'

export const brand = {
  name: 'Lodestar AI',
  shortName: 'Lodestar',
  legalName: 'Lodestar AI GmbH',
  domain: 'lodestar.example',
  supportEmail: 'support@lodestar.example',
  salesEmail: 'sales@lodestar.example',
  logo: '/brand/logo.svg',
  logoZip: '/brand/logo-kit.zip',
  /** Prefix of the API key string, so leaked keys are recognisable to scanners. */
  keyPrefix: 'lds_',
} as const

export const sourceLocale = 'en-US'
/** Spec §9: the interface languages, en-US first (the default). */
export const interfaceLocales = ['en-US', 'de', 'fr', 'es', 'it', 'zh-CN', 'zh-TW', 'ja', 'ko', 'ru'] as const
/** Spec §4/§9: translation sets also include mn, which the interface does not offer. */
export const catalogLocales = [...interfaceLocales, 'mn'] as const
export type Locale = (typeof interfaceLocales)[number]
export type CatalogLocale = (typeof catalogLocales)[number]
/** Path segments accepted as a locale and what they mean; `en` maps to en-US (spec §4). */
export const localeAliases: Record<string, Locale> = { en: 'en-US' }

/** Spec §9 business constants. */
export const constants = {
  freePackTokens: 10_000_000,
  maxBalanceThresholds: 3,
  notificationTimeoutMs: 5000,
  notificationPosition: 'bottom',
  dialogTransitionMs: 300,
  scroll: { offsetPx: 60, delayMs: 100, observerTimeoutMs: 2000 },
  callableTimeoutMs: 70_000,
  defaultRegion: 'us-central1',
} as const

/** Spec §3: the product list is filtered to these two price ids. */
export const allowedPriceIds = ['price_tokens_1b', 'price_tokens_11b'] as const

/**
 * Per-minute request limits per key tier, from the original API's published table (api-contracts.md).
 * `null` means the API needs a key. `dashboard` is this product's own limit for /api/v1 per key.
 */
export const rateLimitTiers = {
  reader: { anonymous: 20, free: 500, paid: 500, premium: 5000 },
  embeddings: { anonymous: null, free: 100, paid: 500, premium: 5000 },
  rerank: { anonymous: null, free: 100, paid: 500, premium: 5000 },
  classify: { anonymous: null, free: 25, paid: 125, premium: 1250 },
  segment: { anonymous: 20, free: 200, paid: 200, premium: 1000 },
  deepsearch: { anonymous: null, free: 50, paid: 50, premium: 500 },
  dashboard: { anonymous: null, free: 600, paid: 1200, premium: 6000 },
} as const
export type RateLimitedApi = keyof typeof rateLimitTiers

/**
 * Server environment schema. Built on first use so browser bundles, which import this file for the
 * brand and constants, never carry it. Every variable is documented in README.md.
 */
function buildEnvSchema() {
  const port = v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(65535))
  const url = v.pipe(v.string(), v.url('must be a URL'))
  const optional = <T extends v.GenericSchema<string, unknown>>(schema: T) =>
    v.optional(v.pipe(v.string(), v.trim(), v.transform((s) => (s === '' ? undefined : s)), v.optional(schema)))

  const rateWindow = v.pipe(
    v.string(),
    v.regex(/^\d+\/\d+$/, 'must read like 3/3600 (count/seconds)'),
    v.transform((s) => {
      const [limit, seconds] = s.split('/').map(Number)
      return { limit, windowMs: seconds * 1000 }
    }),
  )

  return v.object({
    PORT: v.optional(port, '3000'),
    DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), '.data'),
    DATABASE_URL: optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'))),
    /**
     * Postgres connections this process keeps open. Unset: twice the CPUs the process may use, the usual
     * sizing for a pool in front of a database that does the work (more connections than that only queue
     * inside Postgres and switch contexts; measured in BENCHMARKS.md).
     */
    DATABASE_POOL_MAX: optional(v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(1000))),
    PUBLIC_BASE_URL: v.optional(url, 'http://localhost:3000'),
    REDIS_URL: optional(v.pipe(v.string(), v.regex(/^rediss?:\/\//, 'must be a redis:// URL'))),
    SMTP_URL: optional(v.pipe(v.string(), v.regex(/^smtps?:\/\//, 'must be an smtp:// URL'))),
    MAIL_FROM: v.optional(v.pipe(v.string(), v.email('must be an e-mail address')), `no-reply@${brand.domain}`),
    SALES_EMAIL: v.optional(v.pipe(v.string(), v.email('must be an e-mail address')), brand.salesEmail),
    USAGE_SERVICE_TOKEN: optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
    CAPTCHA_SECRET: optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
    TURNSTILE_SECRET_KEY: optional(v.string()),
    TURNSTILE_SITE_KEY: optional(v.string()),
    /** ALTCHA work: the largest proof-of-work counter (about 1 s in a browser at the default). */
    CAPTCHA_DIFFICULTY: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(2), v.maxValue(1_000_000)), '10000'),
    /** Turnstile's siteverify endpoint; only tests point it elsewhere (a loopback server). */
    TURNSTILE_VERIFY_URL: optional(url),
    /** Trial keys per client address, as `count/seconds`; a 429 sends the dashboard to an empty key. */
    RATE_LIMIT_TRIAL: v.optional(rateWindow, '3/3600'),
    /** Empty (zero-token) keys per client address, as `count/seconds`. */
    RATE_LIMIT_EMPTY: v.optional(rateWindow, '20/3600'),
    /** `off` disables the per-key limits of /api/v1 (e.g. for benchmarks); otherwise the `dashboard` tier applies. */
    RATE_LIMIT_KEYS: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'on'),
    TRUST_PROXY: v.pipe(v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'), v.transform((s) => s === 'true')),
  })
}

let envSchemaCache: ReturnType<typeof buildEnvSchema> | undefined
export const envSchema = () => (envSchemaCache ??= buildEnvSchema())
export type ServerEnv = v.InferOutput<ReturnType<typeof buildEnvSchema>>

export class ConfigError extends Error {}

/** Parses the environment; a bad value throws naming the variable, so start-up stops with a clear message. */
export function parseEnv(source: Record<string, string | undefined>): ServerEnv {
  const known = Object.fromEntries(Object.keys(envSchema().entries).map((k) => [k, source[k]]).filter(([, val]) => val !== undefined))
  const result = v.safeParse(envSchema(), known, { abortPipeEarly: true })
  if (result.success) return result.output
  const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '?'} ${issue.message}`)
  throw new ConfigError(`Invalid environment: ${problems.join('; ')}`)
}

let cached: { source: Record<string, string | undefined>; snapshot: string; env: ServerEnv } | undefined

/** The environment the current request started with, when the server runs requests in a scope (app/server/http/request-env.ts). */
let requestScoped: (() => ServerEnv | undefined) | undefined

/** The server installs the lookup of its request scope here; this file stays free of server-only imports. */
export function scopeServerEnvTo(current: () => ServerEnv | undefined): void {
  requestScoped = current
}

/**
 * Reads the environment per request (edge runtimes bind it late); parses again only when it changed.
 * Inside a request the answer is the one read when it started, so the many calls one request makes
 * cost a lookup instead of a pass over every variable.
 */
export function serverEnv(source: Record<string, string | undefined> = globalThis.process?.env ?? {}): ServerEnv {
  if (source === globalThis.process?.env) {
    const scoped = requestScoped?.()
    if (scoped) return scoped
  }
  const snapshot = Object.keys(envSchema().entries).map((k) => source[k] ?? '').join('\u0000')
  if (cached?.source === source && cached.snapshot === snapshot) return cached.env
  const env = parseEnv(source)
  cached = { source, snapshot, env }
  return env
}
