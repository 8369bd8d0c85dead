import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { envTable, withEnvTable } from '~/server/env-rules'
import { envSettings } from '~/server/env-settings'
import { parseEnv } from '~/server/env'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

describe("README's configuration table", () => {
  it('is the one written from app/server/env-settings.ts (node scripts/env-table.mjs rewrites it)', () => {
    expect(withEnvTable(readme, envTable(envSettings()))).toBe(readme)
  })

  it('names every variable the server reads, with a meaning for each row', () => {
    const table = envTable(envSettings())
    for (const name of Object.keys(envSettings())) expect(table).toContain(`\`${name}\``)
    for (const row of table.split('\n').slice(2)) expect(row).not.toMatch(/\|\s*\|$/)
  })

  it('says the defaults the server applies', () => {
    const env = parseEnv({})
    const table = envTable(envSettings())
    const row = (name: string) => table.split('\n').find((line) => line.startsWith(`| \`${name}\``)) ?? ''
    expect(row('READER_CACHE_TTL_SECONDS')).toContain(`\`${env.READER_CACHE_TTL_SECONDS}\``)
    expect(row('INFERENCE_ENGINE')).toContain(`\`${env.INFERENCE_ENGINE}\``)
    expect(row('TRUST_PROXY')).toContain(`\`${env.TRUST_PROXY}\``)
    expect(row('MAIL_FROM')).toContain(`\`${env.MAIL_FROM}\``)
  })
})
