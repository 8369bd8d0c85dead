import { describe, expect, it } from 'vitest'
import { ConfigError, parseEnv } from '~/server/env'
import { sandboxByDefault } from '../../local/payments-default.mjs'

describe('environment', () => {
  it('has working defaults for a laptop', () => {
    const env = parseEnv({})
    expect(env).toMatchObject({ PORT: 3000, DATA_DIR: '.data', PUBLIC_BASE_URL: 'http://localhost:3000' })
    expect(env.DATABASE_URL).toBeUndefined()
  })

  it('links to the port it serves on unless a public origin is set', () => {
    expect(parseEnv({ PORT: '4301' }).PUBLIC_BASE_URL).toBe('http://localhost:4301')
    expect(parseEnv({ PORT: '4301', PUBLIC_BASE_URL: 'https://lodestar.example' }).PUBLIC_BASE_URL).toBe(
      'https://lodestar.example',
    )
  })

  it('names the variable that is wrong', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrowError(/PORT must be an integer/)
    expect(() => parseEnv({ DATABASE_URL: 'mysql://x' })).toThrowError(/DATABASE_URL must be a postgres:\/\/ URL/)
    expect(() => parseEnv({ PUBLIC_BASE_URL: 'not a url' })).toThrowError(ConfigError)
  })

  it('treats an empty optional variable as unset', () => {
    expect(parseEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined()
  })

  it('keeps the reader to public addresses unless READER_ALLOW_PRIVATE_NETWORKS=true, and reads its DNS servers', () => {
    const env = parseEnv({})
    expect(env.READER_ALLOW_PRIVATE_NETWORKS).toBe(false)
    expect(env.READER_DNS_SERVERS).toBeUndefined()
    expect(env.READER_CACHE_TTL_SECONDS).toBe(3600)
    expect(parseEnv({ READER_ALLOW_PRIVATE_NETWORKS: 'true' }).READER_ALLOW_PRIVATE_NETWORKS).toBe(true)
    expect(parseEnv({ READER_DNS_SERVERS: '127.0.0.1:5353, [::1]:53' }).READER_DNS_SERVERS).toEqual([
      '127.0.0.1:5353',
      '[::1]:53',
    ])
    expect(() => parseEnv({ READER_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrowError(/READER_ALLOW_PRIVATE_NETWORKS/)
    expect(() => parseEnv({ READER_DNS_SERVERS: 'dns.example.com; rm' })).toThrowError(/READER_DNS_SERVERS/)
  })

  it('refuses the upstream deep-search engine without its model and search API', () => {
    expect(parseEnv({}).DEEPSEARCH_ENGINE).toBe('builtin')
    expect(() => parseEnv({ DEEPSEARCH_ENGINE: 'upstream', LLM_BASE_URL: 'http://llm.test/v1' })).toThrowError(
      'Invalid environment: DEEPSEARCH_ENGINE=upstream needs LLM_BASE_URL, LLM_MODEL and SEARCH_API_URL',
    )
    const upstream = parseEnv({
      DEEPSEARCH_ENGINE: 'upstream',
      LLM_BASE_URL: 'http://llm.test/v1',
      LLM_MODEL: 'small',
      SEARCH_API_URL: 'http://search.test/search',
    })
    expect(upstream).toMatchObject({ DEEPSEARCH_ENGINE: 'upstream', LLM_TIMEOUT_MS: 60000 })
  })

  it('runs the payment sandbox only when asked, never together with Stripe', () => {
    expect(parseEnv({}).PAYMENTS_SANDBOX).toBe('off')
    expect(parseEnv({ PAYMENTS_SANDBOX: 'on' }).PAYMENTS_SANDBOX).toBe('on')
    expect(() => parseEnv({ PAYMENTS_SANDBOX: 'yes' })).toThrowError(/PAYMENTS_SANDBOX must be on or off/)
    expect(() =>
      parseEnv({ PAYMENTS_SANDBOX: 'on', STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }),
    ).toThrowError(/PAYMENTS_SANDBOX=on runs the test-mode sandbox instead of Stripe/)
  })

  it('has npm start turn the sandbox on for a local server only, and leave an explicit setting or Stripe alone', () => {
    expect(sandboxByDefault({})).toBe('on')
    expect(sandboxByDefault({ PUBLIC_BASE_URL: 'http://127.0.0.1:4000' })).toBe('on')
    expect(sandboxByDefault({ PUBLIC_BASE_URL: 'https://lodestar.example' })).toBe('off')
    expect(sandboxByDefault({ PAYMENTS_SANDBOX: 'on', PUBLIC_BASE_URL: 'https://lodestar.example' })).toBeUndefined()
    expect(sandboxByDefault({ PAYMENTS_SANDBOX: 'off' })).toBeUndefined()
    expect(sandboxByDefault({ STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toBeUndefined()
  })

  it('re-checks sessions at least hourly, and reads the service account it asks with', () => {
    expect(parseEnv({}).SESSION_CHECK_SECONDS).toBe(3600)
    expect(() => parseEnv({ SESSION_CHECK_SECONDS: '7200' })).toThrowError(/SESSION_CHECK_SECONDS/)
    const key = { type: 'service_account', client_email: 'a@p.iam.gserviceaccount.com', private_key: 'PEM' }
    expect(parseEnv({ FIREBASE_SERVICE_ACCOUNT: JSON.stringify(key) }).FIREBASE_SERVICE_ACCOUNT).toEqual({
      clientEmail: 'a@p.iam.gserviceaccount.com',
      privateKey: 'PEM',
    })
    expect(() => parseEnv({ FIREBASE_SERVICE_ACCOUNT: '{"client_email": 1' })).toThrowError(
      /FIREBASE_SERVICE_ACCOUNT must be a service account's JSON key/,
    )
  })
})
