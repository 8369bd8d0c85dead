import { describe, expect, it } from 'vitest'
import { ConfigError, parseEnv } from '~/server/env'

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
})
