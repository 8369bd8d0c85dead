import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { submitLead } from '~/server/api/contact'
import { buildRequest, scalar, apiDatabase, solvedCaptcha } from '../support/api'
import { callerOf } from '~/server/http/caller-of'

const database = apiDatabase({ env: { SALES_EMAIL: 'sales@example.test' } })

const lead = {
  name: 'Ada Lovelace',
  email: 'ada@engines.example',
  company: 'Analytical Engines Ltd',
  message: 'We need embeddings for 40 million documents in 12 languages.',
  locale: 'de' as const,
}
const from = (address: string) => callerOf(buildRequest('POST', '/_serverFn/contact', { address }), undefined)
const count = (table: string) => scalar(database.db, sql.raw(`select count(*) from ${table}`))

describe('contact sales', () => {
  it('stores a lead and queues one mail to sales', async () => {
    const result = await submitLead(from('198.51.100.1'), {
      ...lead,
      captcha: await solvedCaptcha('contact_sales'),
    })
    expect(result).toEqual({ ok: true })
    expect(await count('contact_leads')).toBe(1)
    expect(
      await scalar(
        database.db,
        sql`select count(*) from email_outbox where "to" = 'sales@example.test' and kind = 'contact-lead'`,
      ),
    ).toBe(1)
  })

  it('stores nothing when the captcha answer is not genuine', async () => {
    const before = await count('contact_leads')
    expect(await submitLead(from('198.51.100.2'), { ...lead, captcha: 'bm90LWEtc29sdXRpb24=' })).toEqual({
      ok: false,
      reason: 'captcha',
    })
    expect(await count('contact_leads')).toBe(before)
  })

  it('answers the sixth verified lead from one address within the hour as rate limited, storing nothing', async () => {
    const address = '198.51.100.3'
    for (let i = 0; i < 5; i++)
      await submitLead(from(address), { ...lead, captcha: await solvedCaptcha('contact_sales') })
    const before = await count('contact_leads')
    const sixth = await submitLead(from(address), {
      ...lead,
      captcha: await solvedCaptcha('contact_sales'),
    })
    expect(sixth).toEqual({ ok: false, reason: 'rate_limited' })
    expect(await count('contact_leads')).toBe(before)
  })
})
