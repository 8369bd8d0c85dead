import { describe, expect, it } from 'vitest'
import { serviceGate } from '../support/services'

describe('suites that need a service', () => {
  it('run when the variable is set, in CI or not', () => {
    expect(serviceGate('TEST_REDIS_URL', { TEST_REDIS_URL: 'redis://127.0.0.1:6379' })).toBe('run')
    expect(serviceGate('TEST_REDIS_URL', { TEST_REDIS_URL: 'redis://127.0.0.1:6379', CI: 'true' })).toBe('run')
  })

  it('fail in CI when the variable is missing or empty', () => {
    expect(serviceGate('TEST_DATABASE_URL', { CI: 'true' })).toBe('fail')
    expect(serviceGate('TEST_DATABASE_URL', { CI: '1', TEST_DATABASE_URL: '' })).toBe('fail')
  })

  it('skip locally, where CI is unset, empty or false', () => {
    expect(serviceGate('TEST_DATABASE_URL', {})).toBe('skip')
    expect(serviceGate('TEST_DATABASE_URL', { CI: '' })).toBe('skip')
    expect(serviceGate('TEST_DATABASE_URL', { CI: 'false' })).toBe('skip')
    expect(serviceGate('TEST_DATABASE_URL', { CI: '0' })).toBe('skip')
  })
})
