/**
 * Every environment variable the server reads: its rule (env-rules.ts), what it means and its default. The
 * README's configuration table is written from this list (`node scripts/env-table.mjs`; a unit test fails
 * when they differ), so a new variable is documented by declaring it here.
 */
import * as v from 'valibot'
import { brand } from '#config'
import { email, filled, flag, integer, listOf, matching, oneOf, rate, secret, setting, text, url } from './env-rules'

type PasswordClass = 'lower' | 'upper' | 'numeric' | 'symbol'

/** A service account's JSON key (its text), read as the two fields the server signs with. */
const serviceAccount = () =>
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
  )

/** Built on first use: most processes that import the server (tests, tools) never parse the environment. */
export function envSettings() {
  return {
    PORT: setting(integer(1, 65535), 'HTTP port of the Node server', '3000'),
    DATA_DIR: setting(filled(), 'PGlite database and local files (e-mail outbox)', '.data'),
    DATABASE_URL: setting(
      matching(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
      '`postgres://…` to use Postgres instead of the embedded PGlite',
    ),
    DATABASE_POOL_MAX: setting(integer(1, 1000), {
      meaning: 'Postgres connections per process; more only queue inside Postgres (see `BENCHMARKS.md`)',
      shown: 'twice the CPU count',
    }),
    DATABASE_POOLER: setting(oneOf(['none', 'transaction']), {
      meaning:
        '`transaction` when `DATABASE_URL` is PgBouncer in transaction mode: no start-up `statement_timeout` (set it on the role instead, see "Deploying at scale"), unnamed statements; `none` turns detection off',
      shown: 'unset (direct; switches to `transaction` with one log line when a pooler refuses a start-up parameter)',
    }),
    PUBLIC_BASE_URL: setting(url(), {
      meaning: 'public origin: canonical links, sitemap, API reference, CORS and CSRF origin checks',
      shown: '`http://localhost:` and `PORT`',
    }),
    PUBLIC_API_BASE_URL: setting(url(), {
      meaning: "where the search APIs (`/v1/…`) are called: the code samples and the demos' `curl` use it",
      shown: '`PUBLIC_BASE_URL`',
    }),
    SERVED_MODELS: setting(
      text(),
      'which catalogue models the search APIs serve, each with its engine instance, as JSON (see "Serving models"); unset: every catalogue model on `INFERENCE_ENGINE`',
    ),
    INFERENCE_ENGINE: setting(
      oneOf(['builtin', 'onnx', 'use-lite', 'upstream']),
      'without `SERVED_MODELS`, the engine of every served model: `builtin`, `onnx`, `use-lite` or `upstream` (see "Serving models")',
      'builtin',
    ),
    MODELS_DIR: setting(filled(), "the `onnx` engine's model folder (nothing is ever downloaded)", 'models'),
    ONNX_EMBEDDING_MODEL: setting(
      matching(/^[\w.-]+(\/[\w.-]+)?$/, 'must be a folder name under MODELS_DIR'),
      "the `onnx` engine's model: a folder under `MODELS_DIR` with `tokenizer.json`, `tokenizer_config.json`, `config.json` and `onnx/model.onnx` (required with `onnx` unless `SERVED_MODELS` names the folders)",
    ),
    UPSTREAM_API_BASE_URL: setting(
      url(),
      "the `upstream` engine's compatible API (`…/v1/embeddings`, `…/v1/rerank`) and its key (the URL is required with `upstream`)",
    ),
    UPSTREAM_API_KEY: setting(text()),
    UPSTREAM_TIMEOUT_MS: setting(
      integer(100, 600_000),
      'how long the `upstream` engine waits for an answer (then 504)',
      '30000',
    ),
    READER_ALLOW_PRIVATE_NETWORKS: flag(
      '`true` lets the reader fetch loopback, private, link-local and other non-public addresses (tests, self-hosting on a private network); see "Reader and deep search"',
    ),
    WEBHOOKS_ALLOW_PRIVATE_NETWORKS: flag(
      "`true` lets webhook endpoints be on loopback, private and other non-public addresses (tests); otherwise they are held to the reader's address rules, at creation and at every delivery (names resolved with `READER_DNS_SERVERS`)",
    ),
    READER_DNS_SERVERS: setting(
      listOf('[\\w.:[\\]]+', 'must be a comma-separated list of ip or ip:port'),
      "DNS servers the reader resolves page hosts with, `ip` or `ip:port`, comma-separated (tests point it at a fake zone on loopback); unset: the system's resolver, `/etc/hosts` included",
    ),
    READER_CACHE_TTL_SECONDS: setting(
      integer(0, 30 * 86_400),
      'how long a converted page is answered from the `reader_cache` table (`0`: no cache)',
      '3600',
    ),
    READER_CONVERT_THREADS: setting(integer(1, 64), {
      meaning:
        'processes that convert the pages the reader fetched, one page each at a time (see "Reader and deep search"; the name is from when they were threads)',
      shown: 'CPUs − 1, at least 2',
    }),
    READER_CONVERT_TIMEOUT_SECONDS: setting(
      integer(1, 600),
      'how long one page may take to convert; beyond it its converter process is ended and replaced, and the page refused with 504',
      '15',
    ),
    CHROMIUM_PATH: setting(text(), {
      meaning:
        "Chromium for the reader's browser engine (`X-Engine: browser`, screenshots) and the browser tests; without one, browser options answer `501 {detail}` naming this variable",
      shown: '`/usr/bin/chromium-headless-shell`, else `/usr/bin/chromium`, when there',
    }),
    READER_BROWSER_PAGES: setting(
      integer(1, 32),
      "pages the reader's browser renders at once (more wait, a freed page going to the caller rendering the fewest)",
      '2',
    ),
    READER_BROWSER_PAGES_PER_CALLER: setting(
      integer(1, 32),
      "pages one key (or one address without a key) renders at once; its other reads wait behind other callers' reads",
      '1',
    ),
    READER_BROWSER_SECONDS_PER_MINUTE: setting(integer(1, 3600), {
      meaning:
        "browser time one key (or one address without a key) may use a minute, its pages' times added, for every key tier alike; a page is cut where it runs out, and further reads that name `X-Engine: browser` are refused with 429 and `Retry-After` (reads naming no engine are read directly, with a warning)",
      shown:
        "unset: the key tier's `readerBrowserSeconds` in `app.config.ts` (20 s without a key, 40 free, 60 paid, 120 premium)",
    }),
    READER_BROWSER_MEMORY_MB: setting(
      integer(64, 8192),
      "memory one rendered page may use, all of it (its renderer's resident memory: JavaScript heap, typed arrays, images, DOM); past it the page is stopped and refused with 422",
      '512',
    ),
    READER_BROWSER_RECYCLE_PAGES: setting(
      integer(1, 100_000),
      'pages the browser process renders before it is closed and started anew (it is also closed after a minute unused)',
      '200',
    ),
    READER_SHOT_MAX_MB: setting(
      integer(1, 256),
      'largest screenshot or pageshot stored, in MB (a larger PNG is refused with 422); both are also cut at 16.8 million pixels before they are taken',
      '32',
    ),
    READER_ALLOW_PAGE_SCRIPTS: flag(
      '`true` lets callers run their own script in the page (`injectPageScript`); otherwise it is refused with 422',
    ),
    READER_HOST: setting(
      matching(/^[a-z0-9.-]+(:\d{1,5})?$/i, 'must be a host name such as r.example.com (with a port if it has one)'),
      "a host whose whole root is the reader, as the original's is: `GET /<url>` (with or without `https://`) and `POST /` read pages; unset: the reader answers at `/r/<url>`, and at this site's root for absolute `http(s)` URLs",
    ),
    READER_CONVERT_MEMORY_MB: setting(
      integer(32, 16_384),
      "JavaScript heap one page's conversion may use; beyond it its converter process is ended and replaced, and the page refused with 422",
      '512',
    ),
    DEEPSEARCH_ENGINE: setting(
      oneOf(['builtin', 'upstream']),
      "what answers deep search: `builtin` (this site's content and pages named in the question) or `upstream`",
      'builtin',
    ),
    LLM_BASE_URL: setting(
      url(),
      "the `upstream` deep-search engine's OpenAI-compatible chat API (`…/chat/completions` is appended to the URL), its key and model (URL and model required with `upstream`)",
    ),
    LLM_API_KEY: setting(text()),
    LLM_MODEL: setting(filled()),
    LLM_TIMEOUT_MS: setting(
      integer(100, 600_000),
      'how long the `upstream` deep-search engine waits for the model or the search API (then 504)',
      '60000',
    ),
    SEARCH_API_URL: setting(
      url(),
      'the `upstream` web search of deep search and of `/s`: a SearXNG-style JSON API, called as `SEARCH_API_URL?q=…&format=json` (required with either `upstream`)',
    ),
    SEARCH_ENGINE: setting(
      oneOf(['builtin', 'upstream']),
      "what the search endpoint (`/s/<query>`, `POST /s`) searches: `builtin` (this site's products, models, papers and news, offline) or `upstream` (`SEARCH_API_URL`)",
      'builtin',
    ),
    SEARCH_HOST: setting(
      matching(/^[a-z0-9.-]+(:\d{1,5})?$/i, 'must be a host name such as s.example.com (with a port if it has one)'),
      "a host whose whole root is the search endpoint, as the original's is: `GET /<query>`, `GET /?q=…` and `POST /` search; unset: search answers at `/s/<query>` and `POST /s`",
    ),
    INSTANCE_ID: setting(matching(/^[\w.:-]{1,100}$/, 'must be letters, digits, ., :, _ or -'), {
      meaning:
        "this process's name in log lines and in `app_instances`, where each instance on a Postgres records a fingerprint of its shared secrets every 10 s: a server whose `CAPTCHA_SECRET`, `BULK_DOWNLOAD_SECRET`, `PAYMENTS_SANDBOX_SECRET` (sandbox on) or `KEY_ENCRYPTION_SECRET` differs from a live instance (seen in the last 30 s, and on this machine its process still running: a crashed one's row does not count) logs the variables and exits; a random per-process default always differs",
      shown: 'host name and process id',
    }),
    REDIS_URL: setting(
      matching(/^rediss?:\/\//, 'must be a redis:// URL'),
      '`redis://…` for rate-limit counters shared between instances (in-memory otherwise); while it is unreachable each instance counts in its own memory, with one warning',
    ),
    SMTP_URL: setting(
      matching(/^smtps?:\/\//, 'must be an smtp:// URL'),
      '`smtp://user:pass@host:587` to send e-mail; otherwise messages are written to `DATA_DIR/outbox/`',
    ),
    MAIL_FROM: setting(email(), 'sender of outgoing e-mail', `no-reply@${brand.domain}`),
    SALES_EMAIL: setting(email(), 'where contact-sales leads are sent', brand.salesEmail),
    SELLER_ADDRESS: setting(
      text(),
      {
        meaning:
          'the seller block of invoices beside `brand.legalName`: the postal address (lines separated by `;` or a newline), the VAT id and the company register entry; empty prints none',
        shown: '`brand` in `app.config.ts`',
      },
      brand.legalAddress,
    ),
    SELLER_VAT_ID: setting(text(), { shown: '`brand` in `app.config.ts`' }, brand.vatId),
    SELLER_REGISTRATION_ID: setting(text(), { shown: '`brand` in `app.config.ts`' }, brand.registrationId),
    USAGE_SERVICE_TOKEN: setting(
      secret(16),
      'bearer token the search services use on `POST /internal/v1/usage` (metering is refused without it)',
    ),
    METRICS_TOKEN: setting(
      secret(16),
      'bearer token `GET /metrics` (Prometheus text) asks for; unset, `/metrics` answers 404 (nothing exposed by default)',
    ),
    DRAIN_DELAY_MS: setting(
      integer(0, 300_000),
      'milliseconds a Node server keeps serving after SIGTERM with readiness (`/healthz`) already 503, so a balancer stops sending before the listener closes; 0 closes at once',
      '0',
    ),
    CAPTCHA_SECRET: setting(secret(16), {
      meaning:
        'HMAC key of ALTCHA challenges (each is signed for one action and redeemed once); set it when running several instances',
      shown: 'random per process',
    }),
    CAPTCHA_DIFFICULTY: setting(
      integer(2, 1_000_000),
      'ALTCHA proof-of-work size (about a second in a browser)',
      '10000',
    ),
    TURNSTILE_SECRET_KEY: setting(text(), 'use Cloudflare Turnstile instead of ALTCHA'),
    TURNSTILE_SITE_KEY: setting(text()),
    TURNSTILE_VERIFY_URL: setting(url(), {
      meaning: 'Turnstile verification endpoint (tests point it at a loopback server)',
      shown: "Cloudflare's",
    }),
    RATE_LIMIT_TRIAL: setting(
      rate(),
      'trial keys per client address (IPv6: per /64), as `count/seconds`; only attempts whose captcha verified count (any attempt: 60 an hour)',
      '3/3600',
    ),
    RATE_LIMIT_EMPTY: setting(rate(), 'empty keys per client address, counted the same way', '20/3600'),
    RATE_LIMIT_KEYS: setting(oneOf(['on', 'off']), '`off` disables per-key API rate limits (benchmarks)', 'on'),
    SERVER_SHUTDOWN_TIMEOUT: setting(
      integer(0, 3600),
      "seconds a stopping Node server waits for requests under way (read by Nitro's Node runtime)",
      '5',
    ),
    TRUST_PROXY: flag('`true` to take the client address from the last `X-Forwarded-For` hop behind a proxy'),
    STRIPE_SECRET_KEY: setting(
      matching(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_…)'),
      'both set: payments go through Stripe (its Checkout, its webhooks to `/api/v1/billing/webhook/stripe`); both unset: the sandbox if `PAYMENTS_SANDBOX=on`, else no payments',
    ),
    STRIPE_WEBHOOK_SECRET: setting(matching(/^whsec_\w+$/, 'must be a Stripe webhook secret (whsec_…)')),
    STRIPE_API_URL: setting(url(), {
      meaning: "another address for Stripe's API (a mock or a proxy; the tests use a loopback fake)",
      shown: "Stripe's",
    }),
    PAYMENTS_SANDBOX: setting(
      oneOf(['on', 'off']),
      {
        meaning:
          "`on`: without Stripe's keys, payments go through the built-in test-mode sandbox, where a test card buys real tokens on this server; `off`: without Stripe nothing can be bought (checkout, auto-recharge and the sandbox's page answer `501 {detail}`). Refused together with the `STRIPE_*` keys",
        shown: '`off` (`npm start` on a local address, and the tests: `on`)',
      },
      'off',
    ),
    PAYMENTS_SANDBOX_SECRET: setting(secret(16), {
      meaning: "signs the sandbox's payment events; set it when running several instances",
      shown: 'random per process',
    }),
    AUTO_RECHARGE_MAX_PER_DAY: setting(
      integer(1, 1000),
      'auto-recharges one key may make in a day and in 30 days; past them a recharge fails and turns itself off',
      '5',
    ),
    AUTO_RECHARGE_MAX_PER_MONTH: setting(integer(1, 10_000), undefined, '30'),
    JOB_WORKER: setting(
      oneOf(['on', 'off']),
      '`off`: this instance works no bulk-embedding jobs (others, or `npm run worker`, do)',
      'on',
    ),
    REQUEST_LOG_RETENTION_DAYS: setting(
      integer(1, 3650),
      'days the request log keeps each metered request (1 to 3650); every Node instance prunes older rows hourly (see "Request log")',
      '30',
    ),
    BULK_LEASE_SECONDS: setting(
      integer(3, 3600),
      'seconds a bulk job stays with a worker that stopped renewing it (died) before another instance takes it over',
      '60',
    ),
    BULK_DOWNLOAD_SECRET: setting(secret(16), {
      meaning:
        'HMAC key of bulk-job download links (local storage); set it when running several instances, or links die with the process that signed them',
      shown: 'random per process',
    }),
    S3_BUCKET: setting(
      matching(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name'),
      'keep bulk-job files in this S3-compatible bucket instead of `DATA_DIR/objects/`; downloads are then presigned S3 links',
    ),
    S3_REGION: setting(filled(), "the bucket's region", 'us-east-1'),
    S3_ENDPOINT: setting(url(), { meaning: 'another S3-compatible service (MinIO, Cloudflare R2, …)', shown: 'AWS' }),
    S3_ACCESS_KEY_ID: setting(text(), { meaning: 'credentials for the bucket', shown: "the AWS SDK's default chain" }),
    S3_SECRET_ACCESS_KEY: setting(text(), { shown: "the AWS SDK's default chain" }),
    S3_FORCE_PATH_STYLE: flag('`true` for services that need path-style URLs (MinIO)'),
    S3_PREFIX: setting(
      matching(/^([\w.-]+\/)*$/, 'must be empty or end with /'),
      'prepended to every object key (e.g. `prod/`), so deployments can share a bucket',
      '',
    ),
    FIREBASE_PROJECT_ID: setting(
      matching(/^[a-z0-9-]{4,40}$/, 'must be a Firebase project id (lower case, digits, -)'),
      {
        meaning:
          'the Firebase project whose ID tokens are accepted (their audience); unset and not started by `npm start`: sign-in is off and the sign-in page says so',
        shown: 'unset (`npm start`: `demo-lodestar` on the emulator)',
      },
    ),
    FIREBASE_API_KEY: setting(
      text(),
      "the web config the browser's Firebase SDK starts with (required with a real project)",
    ),
    FIREBASE_AUTH_DOMAIN: setting(matching(/^[\w.-]+(:\d+)?$/, 'must be a host name'), {
      shown: '`<project>.firebaseapp.com`',
    }),
    FIREBASE_SERVICE_ACCOUNT: setting(
      serviceAccount(),
      "the JSON key (its text) of a service account allowed to read the project's users (role Firebase Authentication Viewer): the server asks with it whether a session's user still exists and is enabled. Unset with a real project: a session ends after one `SESSION_CHECK_SECONDS` (the emulator needs none)",
    ),
    FIREBASE_AUTH_EMULATOR_HOST: setting(matching(/^[\w.-]+:\d+$/, 'must be host:port'), {
      meaning:
        '`host:port` of the Auth emulator: the SDK talks to it and its unsigned tokens are accepted, only for a `demo-` project',
      shown: 'unset (`npm start`: `127.0.0.1:9099`, or a free port)',
    }),
    FIREBASE_JWKS_URL: setting(url(), {
      meaning: "another address for the ID tokens' published keys (the edge smoke test serves its own on loopback)",
      shown: "Google's",
    }),
    AUTH_GOOGLE: flag(
      '`true` shows "Continue with Google / GitHub" (enable the provider in the Firebase project first)',
    ),
    AUTH_GITHUB: flag(undefined),
    PASSWORD_POLICY: setting(
      oneOf(['OFF', 'AUDIT', 'ENFORCE']),
      'spec §5: `ENFORCE` refuses passwords that break the rules (at sign-up and reset, in the browser and on the server), `AUDIT` logs them, `OFF` skips the check',
      'ENFORCE',
    ),
    PASSWORD_MIN_LENGTH: setting(integer(6, 30), "the policy's length limits", '8'),
    PASSWORD_MAX_LENGTH: setting(integer(6, 4096)),
    PASSWORD_REQUIRE: setting(
      listOf<PasswordClass>('(lower|upper|numeric|symbol)', 'must list lower, upper, numeric, symbol'),
      'character classes a password needs: any of `lower`, `upper`, `numeric`, `symbol`, comma-separated (empty: none)',
      'lower,numeric',
    ),
    SESSION_DAYS: setting(integer(1, 90), 'how long a sign-in session (its cookie and its row) lasts', '14'),
    SESSION_CHECK_SECONDS: setting(
      integer(1, 3600),
      'how long a session is trusted before the identity service is asked again whether its user exists, is enabled and has not had its tokens revoked since the sign-in (1 to 3600: at least as often as ID tokens expire)',
      '3600',
    ),
    KEY_ENCRYPTION_SECRET: setting(secret(32), {
      meaning:
        'seals account keys (AES-256-GCM) so their owner can use them on any device; set it (32+ characters) when running several instances or on an edge runtime, and keep it: keys sealed under a lost secret can no longer be shown',
      shown: 'a random secret kept in `DATA_DIR/secrets/`',
    }),
    READER_UPSTREAM: setting(
      url(),
      'edge build only: the Node instance that serves the reader and deep search, the onnx engine\'s APIs, and bulk embeddings (see "Deploying"); unset, those paths answer 501',
    ),
    EMBEDDINGS_UPSTREAM: setting(url()),
    BULK_UPSTREAM: setting(url()),
    LOG_LEVEL: setting(
      oneOf(['debug', 'info', 'warn', 'error']),
      '`debug`, `info`, `warn` or `error`: refusals (4xx) log at `info`, failures at `error`',
      'info',
    ),
  }
}
