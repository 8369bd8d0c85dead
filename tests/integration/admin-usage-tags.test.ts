import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { flushRequestLog } from '~/server/api/request-log/writer'
import { listUsdPerToken } from '~/server/domain/packs'
import { apiDatabase, call, scalar } from '../support/api'
import { organisationKey, organisationWithBalance, signedInAccount } from '../support/organisations'
import { countTokens } from '../support/tokens'

/** Request tags (`X-Request-Tag`) as a `group_by` and a filter of `/v1/organization/usage/*` and `/costs`. */
const database = apiDatabase()
const org = '/v1/organization'

async function team() {
  const owner = await signedInAccount(database.db, 'owner')
  const organisation = await organisationWithBalance(database.db, owner.uid, 1_000_000)
  const made = await call('POST', '/api/v1/account/admin_keys', {
    ...owner.init,
    json: { organisation_id: organisation.id, name: 'automation' },
  })
  return { organisation, admin: made.body.value as string }
}

const embed = (apiKey: string, text: string, tag?: string) =>
  call('POST', '/v1/embeddings', {
    bearer: apiKey,
    headers: tag ? { 'x-request-tag': tag } : {},
    json: { model: 'embeddings-v3', input: [text] },
  })

const results = (body: { data: Array<{ results: unknown[] }> }) => body.data.flatMap((b) => b.results) as any[]

describe('usage and costs by request tag', () => {
  it('groups by tag, untagged usage under null, adding up to what the ledger charged; filters by tag', async () => {
    const { organisation, admin } = await team()
    const key = await organisationKey(database.db, organisation)
    const a = 'a text for the search feature'
    const b = 'another, rather longer text for the chat feature of the product'
    const c = 'untagged words'
    for (const [text, tag] of [
      [a, 'search'],
      [a, 'search'],
      [b, 'chat'],
      [c, undefined],
    ])
      expect((await embed(key.apiKey, text!, tag)).status).toBe(200)
    await flushRequestLog()
    const charged = await scalar(
      database.db,
      sql`select -sum(amount) from ledger_entries where key_id = ${key.id}::uuid and type = 'consume'`,
    )
    expect(charged).toBe(2 * countTokens(a) + countTokens(b) + countTokens(c))

    const start = String(Math.floor(Date.now() / 1000) - 120)
    const byTag = await call('GET', `${org}/usage/embeddings`, {
      bearer: admin,
      query: { start_time: start, group_by: ['tag', 'api_key_id'] },
    })
    expect(byTag.status).toBe(200)
    const rows = results(byTag.body).map((r) => [r.tag, r.api_key_id, r.input_tokens, r.num_model_requests])
    expect(rows).toHaveLength(3)
    expect(rows).toEqual(
      expect.arrayContaining([
        ['search', key.id, 2 * countTokens(a), 2],
        ['chat', key.id, countTokens(b), 1],
        [null, key.id, countTokens(c), 1],
      ]),
    )

    // Not grouped by tag: one result, as before, with the tag null.
    const whole = await call('GET', `${org}/usage/embeddings`, { bearer: admin, query: { start_time: start } })
    expect(results(whole.body)).toEqual([expect.objectContaining({ tag: null, input_tokens: charged })])

    const filtered = await call('GET', `${org}/usage/embeddings`, {
      bearer: admin,
      query: { start_time: start, tags: ['search'] },
    })
    expect(results(filtered.body)).toEqual([
      expect.objectContaining({ input_tokens: 2 * countTokens(a), num_model_requests: 2 }),
    ])

    const costs = await call('GET', `${org}/costs`, {
      bearer: admin,
      query: { start_time: start, 'group_by[]': ['tag'] },
    })
    expect(costs.status).toBe(200)
    const chat = results(costs.body).find((r) => r.tag === 'chat')
    expect(chat.amount.value).toBeCloseTo(countTokens(b) * listUsdPerToken(), 6)
    const onlyChat = await call('GET', `${org}/costs`, { bearer: admin, query: { start_time: start, tags: ['chat'] } })
    expect(results(onlyChat.body)).toEqual([expect.objectContaining({ amount: chat.amount })])

    const wrong = await call('GET', `${org}/usage/embeddings`, {
      bearer: admin,
      query: { start_time: start, group_by: ['colour'] },
    })
    expect(wrong.status).toBe(422)
  })
})
