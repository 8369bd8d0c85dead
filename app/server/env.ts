/**
 * The server's environment, parsed with valibot. Server-only: the build refuses to put this file (or
 * anything under app/server) in a browser bundle. Every variable is documented in README.md.
 */
import * as v from 'valibot'
import { brand } from '../../app.config'
import { parseServingConfig, ServingConfigError } from '../contracts/serving-config'
import { currentRequest } from './request-context'
import { runtimeProblems } from './runtime'

/** Built on first use: most processes that import this file (tests, tools) never parse the environment. */
function buildEnvSchema() {
  const port = v.pipe(
    v.string(),
    v.transform(Number),
    v.integer('must be an integer'),
    v.minValue(1),
    v.maxValue(65535),
  )
  const url = v.pipe(v.string(), v.url('must be a URL'))
  const optional = <T extends v.GenericSchema<string, unknown>>(schema: T) =>
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.transform((s) => (s === '' ? undefined : s)),
        v.optional(schema),
      ),
    )

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
    DATABASE_POOL_MAX: optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(1000)),
    ),
    /**
     * `transaction` when DATABASE_URL points at a pooler handing out connections per transaction (PgBouncer
     * `pool_mode = transaction`): no start-up parameters, no named prepared statements. Unset: a direct
     * connection, switched to `transaction` (with one log line) if the pooler refuses a start-up parameter.
     */
    DATABASE_POOLER: optional(v.picklist(['none', 'transaction'], 'must be none or transaction')),
    /** This process's name in log lines and among the instances sharing the database. Unset: host name and process id. */
    INSTANCE_ID: optional(v.pipe(v.string(), v.regex(/^[\w.:-]{1,100}$/, 'must be letters, digits, ., :, _ or -'))),
    /** Unset: `http://localhost:` and PORT (see parseEnv), so a server moved to another port links to itself. */
    PUBLIC_BASE_URL: optional(url),
    /** Where the search APIs (/v1, /r) are called, as shown in code samples and demo curls. Unset: PUBLIC_BASE_URL. */
    PUBLIC_API_BASE_URL: optional(url),
    /** What computes embeddings, rerank scores and classifications: `builtin` (offline algorithms), `onnx` or `upstream`. */
    INFERENCE_ENGINE: v.optional(
      v.picklist(['builtin', 'onnx', 'upstream'], 'must be builtin, onnx or upstream'),
      'builtin',
    ),
    /** The onnx engine's local model directory (never downloaded at run time). */
    MODELS_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), 'models'),
    /** The onnx engine's embedding model: a folder under MODELS_DIR with tokenizer.json, tokenizer_config.json, config.json and onnx/model.onnx. */
    ONNX_EMBEDDING_MODEL: optional(
      v.pipe(v.string(), v.regex(/^[\w.-]+(\/[\w.-]+)?$/, 'must be a folder name under MODELS_DIR')),
    ),
    /**
     * Which catalogue models the search APIs serve and with what engine instance, as JSON (see README
     * "Serving models"; checked in providers/inference/serving-config.ts). Unset: every catalogue model on
     * INFERENCE_ENGINE.
     */
    SERVED_MODELS: optional(v.string()),
    /** The upstream engine's compatible API (its /v1/embeddings and /v1/rerank), and its key. */
    UPSTREAM_API_BASE_URL: optional(url),
    UPSTREAM_API_KEY: optional(v.string()),
    UPSTREAM_TIMEOUT_MS: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(100), v.maxValue(600_000)),
      '30000',
    ),
    /** `true` lets the reader fetch loopback, private and link-local addresses (tests, self-hosting); off by default. */
    READER_ALLOW_PRIVATE_NETWORKS: v.pipe(
      v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
      v.transform((s) => s === 'true'),
    ),
    /** DNS servers the reader resolves page hosts with (`ip` or `ip:port`, comma-separated); unset: the system's resolver. */
    READER_DNS_SERVERS: optional(
      v.pipe(
        v.string(),
        v.regex(/^[\w.:[\]]+(\s*,\s*[\w.:[\]]+)*$/, 'must be a comma-separated list of ip or ip:port'),
        v.transform((s) => s.split(',').map((server) => server.trim())),
      ),
    ),
    /** Seconds a page the reader converted is answered from its cache (0: no cache). */
    READER_CACHE_TTL_SECONDS: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(0), v.maxValue(30 * 86_400)),
      '3600',
    ),
    /** Days the request log keeps a request (pruned hourly by every Node instance). */
    REQUEST_LOG_RETENTION_DAYS: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(3650)),
      '30',
    ),
    /**
     * Threads that convert the pages the reader fetched, off the event loop. Unset: one fewer than the CPUs the
     * process may use, at least 2 (so one slow page does not hold every other reader back).
     */
    READER_CONVERT_THREADS: optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(64)),
    ),
    /** Seconds one page may take to convert (parse, Readability, Markdown, token count) before its thread is ended (504). */
    READER_CONVERT_TIMEOUT_SECONDS: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(600)),
      '15',
    ),
    /** Megabytes of JavaScript heap a page's conversion may use before its thread is ended (422). */
    READER_CONVERT_MEMORY_MB: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(32), v.maxValue(16_384)),
      '512',
    ),
    /** Chromium's executable for the reader's browser engine; unset: /usr/bin/chromium when it is there, else none (501). */
    CHROMIUM_PATH: optional(v.string()),
    /** Pages the reader's browser renders at once; more wait in order. */
    READER_BROWSER_PAGES: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(32)),
      '2',
    ),
    /** Megabytes of JavaScript heap one rendered page may use (Chromium's renderer limit). */
    READER_BROWSER_MEMORY_MB: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(64), v.maxValue(8192)),
      '512',
    ),
    /** Pages the browser renders before it is closed and started anew (what it leaks goes with it). */
    READER_BROWSER_RECYCLE_PAGES: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(100_000)),
      '200',
    ),
    /** `true` lets callers run their own script in the page (`injectPageScript`); off by default. */
    READER_ALLOW_PAGE_SCRIPTS: v.pipe(
      v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
      v.transform((s) => s === 'true'),
    ),
    /** What answers deep search: `builtin` (this site's content and pages named in the question) or `upstream`. */
    DEEPSEARCH_ENGINE: v.optional(v.picklist(['builtin', 'upstream'], 'must be builtin or upstream'), 'builtin'),
    /** The upstream deep-search engine's OpenAI-compatible chat API (`…/chat/completions` under it), key and model. */
    LLM_BASE_URL: optional(url),
    LLM_API_KEY: optional(v.string()),
    LLM_MODEL: optional(v.pipe(v.string(), v.minLength(1))),
    LLM_TIMEOUT_MS: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(100), v.maxValue(600_000)),
      '60000',
    ),
    /** The upstream deep-search engine's web search: a SearXNG-style JSON API (`?q=…&format=json`). */
    SEARCH_API_URL: optional(url),
    REDIS_URL: optional(v.pipe(v.string(), v.regex(/^rediss?:\/\//, 'must be a redis:// URL'))),
    SMTP_URL: optional(v.pipe(v.string(), v.regex(/^smtps?:\/\//, 'must be an smtp:// URL'))),
    MAIL_FROM: v.optional(v.pipe(v.string(), v.email('must be an e-mail address')), `no-reply@${brand.domain}`),
    SALES_EMAIL: v.optional(v.pipe(v.string(), v.email('must be an e-mail address')), brand.salesEmail),
    USAGE_SERVICE_TOKEN: optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
    /** The bearer token /metrics asks for; unset, /metrics answers 404 (nothing exposed by default). */
    METRICS_TOKEN: optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
    /**
     * Milliseconds a Node server keeps serving after SIGTERM with readiness (/healthz) already 503, so a
     * balancer stops sending before the listener closes (read by app/server/shutdown.ts). 0: closes at once.
     */
    DRAIN_DELAY_MS: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(0), v.maxValue(300_000)),
      '0',
    ),
    CAPTCHA_SECRET: optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
    TURNSTILE_SECRET_KEY: optional(v.string()),
    TURNSTILE_SITE_KEY: optional(v.string()),
    /** ALTCHA work: the largest proof-of-work counter (about 1 s in a browser at the default). */
    CAPTCHA_DIFFICULTY: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(2), v.maxValue(1_000_000)),
      '10000',
    ),
    /** Turnstile's siteverify endpoint; only tests point it elsewhere (a loopback server). */
    TURNSTILE_VERIFY_URL: optional(url),
    /** Trial keys per client address, as `count/seconds`; a 429 sends the dashboard to an empty key. */
    RATE_LIMIT_TRIAL: v.optional(rateWindow, '3/3600'),
    /** Empty (zero-token) keys per client address, as `count/seconds`. */
    RATE_LIMIT_EMPTY: v.optional(rateWindow, '20/3600'),
    /** `off` disables the per-key limits of /api/v1 (e.g. for benchmarks); otherwise the `dashboard` tier applies. */
    RATE_LIMIT_KEYS: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'on'),
    TRUST_PROXY: v.pipe(
      v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
      v.transform((s) => s === 'true'),
    ),
    /** Stripe: both set, payments go through Stripe; both unset, through the sandbox if PAYMENTS_SANDBOX=on, else none. */
    STRIPE_SECRET_KEY: optional(
      v.pipe(v.string(), v.regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_…)')),
    ),
    STRIPE_WEBHOOK_SECRET: optional(
      v.pipe(v.string(), v.regex(/^whsec_\w+$/, 'must be a Stripe webhook secret (whsec_…)')),
    ),
    /** Another address for Stripe's API (a mock, a proxy); unset: Stripe's own. */
    STRIPE_API_URL: optional(url),
    /**
     * `on`: without Stripe's keys, payments go through the built-in sandbox (test mode: tokens for a test card).
     * Unset or `off`: no sandbox, and without Stripe nothing can be bought. `npm start` (on a local address)
     * and the tests turn it on; a deployment must ask for it.
     */
    PAYMENTS_SANDBOX: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'off'),
    /** Signs the sandbox's payment events; unset: random per process (set it when running several instances). */
    PAYMENTS_SANDBOX_SECRET: optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
    /** Auto-recharges one key may make in a day and in 30 days; past them a recharge fails and turns itself off. */
    AUTO_RECHARGE_MAX_PER_DAY: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(1000)),
      '5',
    ),
    AUTO_RECHARGE_MAX_PER_MONTH: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(10000)),
      '30',
    ),
    /** `off`: this instance takes no bulk-embedding jobs (others, or `npm run worker`, do). */
    JOB_WORKER: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'on'),
    /** Seconds a bulk job stays with a worker that stopped renewing it (died) before another instance takes it over. */
    BULK_LEASE_SECONDS: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(3), v.maxValue(3600)),
      '60',
    ),
    /** HMAC key of bulk-job download links; unset: random per process (links then die with it: set it for several instances). */
    BULK_DOWNLOAD_SECRET: optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
    /** Set: bulk-job files go to this S3-compatible bucket instead of DATA_DIR/objects. */
    S3_BUCKET: optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name'))),
    S3_REGION: v.optional(v.pipe(v.string(), v.minLength(1)), 'us-east-1'),
    /** Another S3-compatible service (MinIO, R2, …); unset: AWS. */
    S3_ENDPOINT: optional(url),
    /** Unset: the AWS SDK's default credential chain (instance role, AWS_* variables). */
    S3_ACCESS_KEY_ID: optional(v.string()),
    S3_SECRET_ACCESS_KEY: optional(v.string()),
    S3_FORCE_PATH_STYLE: v.pipe(
      v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
      v.transform((s) => s === 'true'),
    ),
    /** Prepended to every object key, e.g. `prod/`. */
    S3_PREFIX: v.optional(v.pipe(v.string(), v.regex(/^([\w.-]+\/)*$/, 'must be empty or end with /')), ''),
    /**
     * Firebase Authentication (spec §7 identity service). The project id is the ID tokens' audience; the web
     * API key and auth domain go to the browser's SDK. Unset: the local emulator's `demo-` project (npm start).
     */
    FIREBASE_PROJECT_ID: optional(
      v.pipe(v.string(), v.regex(/^[a-z0-9-]{4,40}$/, 'must be a Firebase project id (lower case, digits, -)')),
    ),
    FIREBASE_API_KEY: optional(v.string()),
    /**
     * A service account's JSON key (its text): the server asks the identity service with it whether a session's
     * user still exists and is enabled. Without it (and outside the emulator) sessions last one check interval.
     */
    FIREBASE_SERVICE_ACCOUNT: optional(
      v.pipe(
        v.string(),
        v.rawTransform(({ dataset, addIssue, NEVER }) => {
          try {
            const key = JSON.parse(dataset.value) as { client_email?: unknown; private_key?: unknown }
            if (typeof key.client_email === 'string' && typeof key.private_key === 'string')
              return { clientEmail: key.client_email, privateKey: key.private_key }
          } catch {
            // reported below
          }
          addIssue({ message: "must be a service account's JSON key (with client_email and private_key)" })
          return NEVER
        }),
      ),
    ),
    FIREBASE_AUTH_DOMAIN: optional(v.pipe(v.string(), v.regex(/^[\w.-]+(:\d+)?$/, 'must be a host name'))),
    /** `host:port` of the Auth emulator: ID tokens are then unsigned, and accepted only for a `demo-` project. */
    /** Another address for Google's published ID-token keys (a JWKS); only tests point it elsewhere (a loopback server). */
    FIREBASE_JWKS_URL: optional(url),
    FIREBASE_AUTH_EMULATOR_HOST: optional(v.pipe(v.string(), v.regex(/^[\w.-]+:\d+$/, 'must be host:port'))),
    /** `true` shows the Google / GitHub sign-in buttons (the provider must be enabled in the Firebase project). */
    AUTH_GOOGLE: v.pipe(
      v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
      v.transform((s) => s === 'true'),
    ),
    AUTH_GITHUB: v.pipe(
      v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
      v.transform((s) => s === 'true'),
    ),
    /** Spec §5 password policy, checked by this server (the emulator does not serve Firebase's own). */
    PASSWORD_POLICY: v.optional(v.picklist(['OFF', 'AUDIT', 'ENFORCE'], 'must be OFF, AUDIT or ENFORCE'), 'ENFORCE'),
    PASSWORD_MIN_LENGTH: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(6), v.maxValue(30)),
      '8',
    ),
    PASSWORD_MAX_LENGTH: optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(6), v.maxValue(4096)),
    ),
    /** Character classes a password needs, comma-separated: lower, upper, numeric, symbol. */
    PASSWORD_REQUIRE: v.optional(
      v.pipe(
        v.string(),
        v.regex(
          /^((lower|upper|numeric|symbol)(,(lower|upper|numeric|symbol))*)?$/,
          'must list lower, upper, numeric, symbol',
        ),
        v.transform((s) => (s ? (s.split(',') as Array<'lower' | 'upper' | 'numeric' | 'symbol'>) : [])),
      ),
      'lower,numeric',
    ),
    /** Days a sign-in session lasts (the cookie and its row). */
    SESSION_DAYS: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(90)),
      '14',
    ),
    /**
     * Seconds a session is trusted without asking the identity service whether its user still exists and is
     * enabled; at most an hour, the life of an ID token (tests shorten it).
     */
    SESSION_CHECK_SECONDS: v.optional(
      v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(3600)),
      '3600',
    ),
    /** Seals account keys so their owner can use them on any device; unset: a random secret kept in DATA_DIR/secrets. */
    KEY_ENCRYPTION_SECRET: optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
    /**
     * Edge build only: the Node instance of this app that serves what a Worker cannot (see
     * node-capabilities.ts); unset, those paths answer 501 naming the setting. The Node build ignores them.
     */
    READER_UPSTREAM: optional(url),
    EMBEDDINGS_UPSTREAM: optional(url),
    BULK_UPSTREAM: optional(url),
    /** Validated here so a typo stops start-up; the logger reads it raw, so it can log even a bad environment. */
    LOG_LEVEL: v.optional(v.picklist(['debug', 'info', 'warn', 'error'], 'must be debug, info, warn or error'), 'info'),
  })
}

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
