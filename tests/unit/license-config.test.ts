// @vitest-environment happy-dom
import { beforeEach, describe, expect, it, vi } from 'vitest'

/** A fresh copy of the module, as a new page load gets it. */
const load = async () => {
  vi.resetModules()
  return import('~/lib/license-config')
}

describe('license config (spec §3, persisted per §9)', () => {
  beforeEach(() => localStorage.clear())

  it('is empty at first and survives a reload once set', async () => {
    const first = await load()
    expect(first.getLicenseConfig()).toEqual({})
    first.setLicenseConfig({ accepted: true, terms: { version: 2, models: ['reranker-v3'] } })
    expect(JSON.parse(localStorage.getItem('licenseConfig')!)).toEqual({
      accepted: true,
      terms: { version: 2, models: ['reranker-v3'] },
    })
    const reloaded = await load()
    expect(reloaded.getLicenseConfig()).toEqual({ accepted: true, terms: { version: 2, models: ['reranker-v3'] } })
  })

  it.each(['not json', '[1,2]', '42', 'null', '"text"'])('reads a stored %s as the empty config', async (stored) => {
    localStorage.setItem('licenseConfig', stored)
    expect((await load()).getLicenseConfig()).toEqual({})
  })

  it('refuses a value that is not an object of JSON values and keeps what was stored', async () => {
    const { getLicenseConfig, setLicenseConfig } = await load()
    setLicenseConfig({ accepted: false })
    expect(() => setLicenseConfig([] as never)).toThrow(TypeError)
    expect(() => setLicenseConfig({ when: new Date() as never })).toThrow(TypeError)
    expect(getLicenseConfig()).toEqual({ accepted: false })
    expect(localStorage.getItem('licenseConfig')).toBe('{"accepted":false}')
  })
})
