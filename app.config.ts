/**
 * What browsers may see of the product's configuration: brand, locales, the spec's constants (§9),
 * the allowed price ids and the rate-limit tiers. Rebranding the site means editing `brand` only.
 * The environment (secrets, URLs) is parsed on the server only, in `app/server/env.ts`.
 */

export const brand = {
  name: 'Lodestar AI',
  shortName: 'Lodestar',
  legalName: 'Lodestar AI GmbH',
  /**
   * What invoices print about the seller besides its name (the server's SELLER_ADDRESS, SELLER_VAT_ID and
   * SELLER_REGISTRATION_ID override them; an empty value prints nothing): the postal address, lines separated by newlines or `;`,
   * the VAT id and the company register entry.
   */
  legalAddress: 'Friedrichstraße 100\n10117 Berlin\nGermany',
  vatId: 'DE000000000',
  registrationId: 'Amtsgericht Berlin-Charlottenburg, HRB 000000 B',
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
/** Spec §6: buying this pack makes a key premium (speed level 2, the premium rate limits). */
export const premiumPriceId = 'price_tokens_11b'

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
  /** The original's search: 40 a minute per key, 100 premium; without a key this server allows 5 an address. */
  search: { anonymous: 5, free: 40, paid: 40, premium: 100 },
  dashboard: { anonymous: null, free: 600, paid: 1200, premium: 6000 },
} as const
export type RateLimitedApi = keyof typeof rateLimitTiers

/**
 * Browser seconds a minute the reader may spend rendering one key's pages, by tier (`anonymous`: per client
 * address without a key). Reads that name no engine render only pages that need it (BENCHMARKS.md: about a
 * second of Chromium and a core-second each); past this a read naming no engine is answered by the direct
 * fetch with a warning, and `X-Engine: browser` is refused with 429. READER_BROWSER_SECONDS_PER_MINUTE
 * overrides every tier.
 */
export const readerBrowserSeconds = { anonymous: 20, free: 40, paid: 60, premium: 120 } as const

/**
 * Per-minute token limits (TPM) per key tier, where the original API publishes them. Classify and train
 * share a limit, as they share a row of its table.
 */
export const tokenRateLimits = {
  embeddings: { free: 100_000, paid: 2_000_000, premium: 50_000_000 },
  rerank: { free: 100_000, paid: 2_000_000, premium: 50_000_000 },
  classify: { free: 25_000, paid: 500_000, premium: 12_000_000 },
} as const
export type TokenLimitedApi = keyof typeof tokenRateLimits
