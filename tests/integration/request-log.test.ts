import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushRequestLog } from '~/server/api/request-log/writer'
import { rowsOf } from '~/server/db/rows'
import { bySystem } from '~/server/domain/audit'
import { issueKey } from '~/server/domain/keys'
import { applyEntry } from '~/server/domain/ledger'
import { pruneRequestLog } from '~/server/domain/request-log'
import { openSession } from '~/server/domain/sessions'
import { ensureUser } from '~/server/domain/users'
import { countTokens } from '../support/tokens'
import { apiDatabase, call, keyWithBalance, respond } from '../support/api'

const database = apiDatabase()
afterEach(() => vi.useRealTimers())

const embed = (bearer: string, json: unknown, headers: Record<string, string> = {}) =>
  call('POST', '/v1/embeddings', { bearer, json, headers })
const list = (bearer: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  call('GET', '/api/v1/requests', { bearer, query, headers })

async function storedRows(keyId: string) {
  await flushRequestLog()
  return rowsOf<Record<string, unknown>>(
    await database.db.execute(sql`select * from request_log where key_id = ${keyId}::uuid order by id`),
  )
}

describe('the request log write path', () => {
  it('records an answered request: key, product, model, engine, tokens, latency, status and id, never its content', async () => {
    const key = await keyWithBalance(database.db, 10_000)
    const secret = 'a confidential sentence about mergers'
    const answer = await embed(key.apiKey, { model: 'embeddings-v3', input: [secret] }, { 'x-request-id': 'log-ok-1' })
    expect(answer.status).toBe(200)
    const [row] = await storedRows(key.id)
    expect(row).toMatchObject({
      request_id: 'log-ok-1',
      product: 'embeddings',
      model: 'embeddings-v3',
      engine: answer.response.headers.get('x-engine'),
      input_tokens: countTokens(secret),
      output_tokens: 0,
      status: 200,
    })
    expect(Number(row.latency_ms)).toBeGreaterThanOrEqual(0)
    expect(JSON.stringify(row)).not.toContain('confidential')
  })

  it('records refusals where the key is known: 402, 409, 422 and 429, each with its status and no tokens', async () => {
    const empty = await keyWithBalance(database.db, 0)
    expect((await embed(empty.apiKey, { model: 'embeddings-v3', input: ['x'] })).status).toBe(402)
    expect((await storedRows(empty.id)).map((r) => [r.status, r.input_tokens])).toEqual([[402, 0]])

    const key = await keyWithBalance(database.db, 100_000)
    const id = `log-replay-${randomUUID()}`
    expect((await embed(key.apiKey, { model: 'embeddings-v3', input: ['x'] }, { 'x-request-id': id })).status).toBe(200)
    expect((await embed(key.apiKey, { model: 'embeddings-v3', input: ['x'] }, { 'x-request-id': id })).status).toBe(409)
    expect((await embed(key.apiKey, { model: 'embeddings-v3', input: 'not a list', dimensions: 2 })).status).toBe(422)
    const statuses = (await storedRows(key.id)).map((r) => r.status)
    expect(statuses).toEqual([200, 409, 422])

    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-22T10:00:01Z') })
    const limited = await keyWithBalance(database.db, 100_000)
    let last = 0
    for (let i = 0; i < 101; i++) last = (await embed(limited.apiKey, { model: 'embeddings-v3', input: ['hi'] })).status
    expect(last).toBe(429)
    const rows = await storedRows(limited.id)
    expect(rows).toHaveLength(101)
    expect(rows.at(-1)).toMatchObject({ status: 429, input_tokens: 0, product: 'embeddings' })
  })

  it('records nothing for a request without a known key (an unknown key gets 401 and no row)', async () => {
    const before = await storedCount()
    expect((await embed('sk-not-a-key', { model: 'embeddings-v3', input: ['x'] })).status).toBe(401)
    expect(await storedCount()).toBe(before)
  })

  it('keeps tokens given back out of the row: a streamed request records what it used', async () => {
    const key = await keyWithBalance(database.db, 10_000)
    const documents = ['one document about rerankers', 'another about embeddings']
    const reranked = await call('POST', '/v1/rerank', {
      bearer: key.apiKey,
      json: { model: 'reranker-v3', query: 'rerankers', documents },
    })
    expect(reranked.status).toBe(200)
    const [row] = await storedRows(key.id)
    expect(row).toMatchObject({
      product: 'reranker',
      model: 'reranker-v3',
      input_tokens: reranked.body.usage.total_tokens,
    })
  })

  it('records a streamed deep search when its stream ends, with the tokens it read and wrote', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const response = await respond('POST', '/v1/chat/completions', {
      bearer: key.apiKey,
      json: {
        model: 'deepsearch-v1',
        stream: true,
        reasoning_effort: 'low',
        messages: [{ role: 'user', content: 'What does a reranker do?' }],
      },
      headers: { 'x-request-id': 'log-stream-1' },
    })
    expect(response.status).toBe(200)
    const text = await response.text()
    const usage = text
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)))
      .findLast((chunk) => chunk.usage)?.usage
    expect(usage.total_tokens).toBeGreaterThan(0)
    const [row] = await storedRows(key.id)
    expect(row).toMatchObject({
      request_id: 'log-stream-1',
      product: 'deepsearch',
      model: 'deepsearch-v1',
      status: 200,
      input_tokens: usage.prompt_tokens,
      output_tokens: usage.completion_tokens,
    })
  })

  it('writes many concurrent requests in batches, every one recorded once', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        embed(key.apiKey, { model: 'embeddings-v3', input: [`text ${i}`] }, { 'x-request-id': `batch-${i}` }),
      ),
    )
    expect(answers.every((a) => a.status === 200)).toBe(true)
    const rows = await storedRows(key.id)
    expect(new Set(rows.map((r) => r.request_id)).size).toBe(60)
  })
})

const storedCount = async () => {
  await flushRequestLog()
  const [row] = rowsOf<{ n: string }>(await database.db.execute(sql`select count(*) as n from request_log`))
  return Number(row.n)
}

/** Rows written straight in, at chosen times, for reading tests. */
async function seed(
  keyId: string,
  rows: Array<{ at: string; product?: string; model?: string; status?: number; id?: string }>,
) {
  await database.db.execute(sql`insert into request_log
    (key_id, request_id, product, model, engine, input_tokens, output_tokens, latency_ms, status, created_at)
    select ${keyId}::uuid, r.request_id, r.product, r.model, 'builtin', 10, 0, 5, r.status, r.created_at
    from jsonb_to_recordset(${JSON.stringify(
      rows.map((r, i) => ({
        request_id: r.id ?? `seed-${i}`,
        product: r.product ?? 'embeddings',
        model: r.model ?? 'embeddings-v3',
        status: r.status ?? 200,
        created_at: r.at,
      })),
    )}::jsonb) as r(request_id text, product text, model text, status int, created_at timestamptz)`)
}

describe('reading the request log', () => {
  it('filters by product, model, status (code or class), time range and request id, newest first', async () => {
    const key = await keyWithBalance(database.db, 0)
    await seed(key.id, [
      { at: '2026-11-01T10:00:00Z', id: 'a' },
      { at: '2026-11-02T10:00:00Z', id: 'b', product: 'reranker', model: 'reranker-v3' },
      { at: '2026-11-03T10:00:00Z', id: 'c', status: 402 },
      { at: '2026-11-04T10:00:00Z', id: 'd', status: 429 },
      { at: '2026-11-05T10:00:00Z', id: 'e', model: 'embeddings-v4' },
    ])
    const ids = async (query: Record<string, string>) =>
      (await list(key.apiKey, query)).body.requests.map((r: { request_id: string }) => r.request_id)
    expect(await ids({})).toEqual(['e', 'd', 'c', 'b', 'a'])
    expect(await ids({ product: 'reranker' })).toEqual(['b'])
    expect(await ids({ model: 'embeddings-v4' })).toEqual(['e'])
    expect(await ids({ status: '402' })).toEqual(['c'])
    expect(await ids({ status: '4xx' })).toEqual(['d', 'c'])
    expect(await ids({ since: '2026-11-02T00:00:00Z', until: '2026-11-04T00:00:00Z' })).toEqual(['c', 'b'])
    expect(await ids({ request_id: 'd' })).toEqual(['d'])
    const bad = await list(key.apiKey, { status: 'failed', since: 'yesterday' })
    expect(bad.status).toBe(422)
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc.at(-1)).sort()).toEqual(['since', 'status'])
  })

  it('pages with a cursor through rows sharing a time, each row once, and shows another key none of them', async () => {
    const key = await keyWithBalance(database.db, 0)
    const same = '2026-11-10T00:00:00Z'
    await seed(
      key.id,
      Array.from({ length: 7 }, (_, i) => ({ at: i < 4 ? same : `2026-11-1${i}T00:00:00Z`, id: `p${i}` })),
    )
    const seen: string[] = []
    let cursor: string | undefined
    for (let page = 0; page < 10; page++) {
      const answer = await list(key.apiKey, { num_records: '3', ...(cursor ? { cursor } : {}) })
      seen.push(...answer.body.requests.map((r: { request_id: string }) => r.request_id))
      cursor = answer.body.next_cursor ?? undefined
      if (!cursor) break
    }
    expect(seen).toHaveLength(7)
    expect(new Set(seen).size).toBe(7)
    expect((await list(key.apiKey, { cursor: 'garbage' })).status).toBe(422)

    const stranger = await keyWithBalance(database.db, 0)
    expect((await list(stranger.apiKey)).body.requests).toEqual([])
    const peek = await list(stranger.apiKey, { key_id: key.id })
    expect(peek.status).toBe(422)
  })

  it("shows the signed-in owner every key of the account, together and apart, and no one else's", async () => {
    const uid = `owner-${randomUUID()}`
    await ensureUser(database.db, { uid, email: `${uid}@example.com` })
    const first = await issueKey(database.db, bySystem, 'empty', { ownerId: uid, name: 'production' })
    const second = await issueKey(database.db, bySystem, 'empty', { ownerId: uid })
    await seed(first.key.id, [{ at: '2026-11-01T00:00:00Z', id: 'first' }])
    await seed(second.key.id, [{ at: '2026-11-02T00:00:00Z', id: 'second' }])
    const { token } = await openSession(database.db, bySystem, uid, 1)
    const cookie = { cookie: `session=${token}` }

    const alone = await list(first.apiKey)
    expect(alone.body.requests.map((r: { request_id: string }) => r.request_id)).toEqual(['first'])
    const together = await list(first.apiKey, {}, cookie)
    expect(together.body.requests.map((r: { key_label: string }) => r.key_label)).toEqual([
      `${second.key.prefix}…${second.key.last4}`,
      'production',
    ])
    expect(together.body.keys.map((k: { key_id: string }) => k.key_id).sort()).toEqual(
      [first.key.id, second.key.id].sort(),
    )
    const apart = await list(first.apiKey, { key_id: second.key.id }, cookie)
    expect(apart.body.requests.map((r: { request_id: string }) => r.request_id)).toEqual(['second'])
  })

  it('exports every matching row, streamed, as CSV with a header or as a JSON array', async () => {
    const key = await keyWithBalance(database.db, 0)
    await seed(
      key.id,
      Array.from({ length: 2100 }, (_, i) => ({
        at: new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString(),
        id: i === 0 ? '=HYPERLINK("x")' : `x${i}`,
        status: i % 2 ? 200 : 402,
      })),
    )
    const csv = await respond('GET', '/api/v1/requests/export', {
      bearer: key.apiKey,
      query: { status: '402' },
    })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toContain('text/csv')
    expect(csv.headers.get('content-disposition')).toMatch(/attachment; filename="requests-.*\.csv"/)
    const lines = (await csv.text()).trimEnd().split('\r\n')
    expect(lines[0]).toBe(
      'id,created_at,key_id,key_label,request_id,product,model,engine,input_tokens,output_tokens,latency_ms,status,tag',
    )
    expect(lines).toHaveLength(1 + 1050)
    // A request id a client chose cannot become a spreadsheet formula.
    expect(lines.at(-1)).toContain(`"'=HYPERLINK(""x"")"`)

    const json = await respond('GET', '/api/v1/requests/export', {
      bearer: key.apiKey,
      query: { format: 'json' },
    })
    const rows = JSON.parse(await json.text())
    expect(rows).toHaveLength(2100)
    expect(rows[0].request_id).toBe('x2099')

    const none = await respond('GET', '/api/v1/requests/export', {
      bearer: key.apiKey,
      query: { format: 'json', product: 'nothing' },
    })
    expect(JSON.parse(await none.text())).toEqual([])
    const refused = await call('GET', '/api/v1/requests/export', { query: { format: 'json' } })
    expect(refused.status).toBe(401)
  })
})

describe('retention', () => {
  it('prunes rows older than the retention and keeps the rest', async () => {
    const key = await keyWithBalance(database.db, 0)
    const day = 86_400_000
    await seed(key.id, [
      { at: new Date(Date.now() - 31 * day).toISOString(), id: 'old' },
      { at: new Date(Date.now() - 29 * day).toISOString(), id: 'recent' },
    ])
    expect(await pruneRequestLog(database.db, 30, 1)).toBeGreaterThanOrEqual(1)
    const left = await list(key.apiKey)
    expect(left.body.requests.map((r: { request_id: string }) => r.request_id)).toEqual(['recent'])
    expect(left.body.retention_days).toBe(30)
  })
})

// A ledger entry whose debit names no request must not disturb the log (bulk jobs debit outside requests).
it('a debit outside any request writes no log row', async () => {
  const key = await keyWithBalance(database.db, 100)
  const before = await storedCount()
  await applyEntry(database.db, {
    keyId: key.id,
    amount: -10,
    type: 'consume',
    externalRef: `usage:${randomUUID()}`,
    product: 'x',
  })
  expect(await storedCount()).toBe(before)
})
