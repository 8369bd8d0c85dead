import { sql } from 'drizzle-orm'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { pruneIdempotencyKeys } from '~/server/domain/idempotency-keys'
import { applyEntry, auditLedger } from '~/server/domain/ledger'
import { BASE, call, fingerprint, keyWithBalance, respond, scalar, send } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'

const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', DEEPSEARCH_ENGINE: 'builtin' })
const db = () => api.database.db

/** Each metered API with a request to send under a key, and another request to send under the same key. */
const meteredCalls: Array<{ api: string; path: string; body: unknown; other: unknown }> = [
  {
    api: 'embeddings',
    path: '/v1/embeddings',
    body: { model: 'embeddings-v3', input: ['an idempotent request'] },
    other: { model: 'embeddings-v3', input: ['another request'] },
  },
  {
    api: 'rerank',
    path: '/v1/rerank',
    body: { model: 'reranker-v3', query: 'rerankers', documents: ['one document', 'two documents'] },
    other: { model: 'reranker-v3', query: 'rerankers', documents: ['one document'] },
  },
  {
    api: 'classify',
    path: '/v1/classify',
    body: { model: 'embeddings-v3', input: ['my parcel is late'], labels: ['shipping', 'account'] },
    other: { model: 'embeddings-v3', input: ['my password'], labels: ['shipping', 'account'] },
  },
  {
    api: 'train',
    path: '/v1/train',
    body: { model: 'embeddings-v3', input: [{ text: 'my parcel is late', label: 'shipping' }] },
    other: { model: 'embeddings-v3', input: [{ text: 'my password', label: 'account' }] },
  },
  {
    api: 'deep search',
    path: '/v1/chat/completions',
    body: { model: 'deepsearch-v1', messages: [{ role: 'user', content: 'Which reranker reads 64 documents?' }] },
    other: { model: 'deepsearch-v1', messages: [{ role: 'user', content: 'Which embeddings model is multilingual?' }] },
  },
  {
    api: 'Responses',
    path: '/v1/responses',
    body: { model: 'deepsearch-v1', input: 'Which reranker reads 64 documents?' },
    other: { model: 'deepsearch-v1', input: 'Which embeddings model is multilingual?' },
  },
]

/** Takes what is left of a key's balance, so a fresh request would get 402. */
async function drain(keyId: string) {
  const balance = await api.balanceOf(keyId)
  if (balance > 0)
    await applyEntry(db(), {
      keyId,
      amount: -balance,
      type: 'consume',
      externalRef: `usage:drain:${keyId}`,
      product: 'test',
    })
}

const consumes = (keyId: string) =>
  scalar(db(), sql`select count(*) from ledger_entries where key_id = ${keyId}::uuid and type = 'consume'`)

const post = (path: string, bearer: string, json: unknown, idempotencyKey?: string, headers = {}) =>
  call('POST', path, {
    bearer,
    json,
    headers: { ...headers, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
  })

describe('Idempotency-Key: the same key and request within 24 hours is answered once and charged once', () => {
  for (const metered of meteredCalls) {
    it(`${metered.api}: replayed at balance 0 with Idempotent-Replayed, and another body under the key is 422`, async () => {
      const key = await keyWithBalance(db(), 1_000_000)
      const idempotencyKey = `idem-${crypto.randomUUID()}`
      const first = await post(metered.path, key.apiKey, metered.body, idempotencyKey)
      expect(first.status).toBe(200)
      expect(first.response.headers.get('idempotent-replayed')).toBeNull()
      await drain(key.id)
      expect((await post(metered.path, key.apiKey, metered.body)).status).toBe(402)

      const before = await fingerprint(db())
      const replay = await post(metered.path, key.apiKey, metered.body, idempotencyKey)
      expect(replay.status).toBe(200)
      expect(replay.body).toEqual(first.body)
      expect(replay.response.headers.get('idempotent-replayed')).toBe('true')
      expect(replay.response.headers.get('content-type')).toBe(first.response.headers.get('content-type'))
      // The replaying call's own rate state, not the stored one's.
      expect(replay.response.headers.get('x-ratelimit-remaining-requests')).not.toBe(
        first.response.headers.get('x-ratelimit-remaining-requests'),
      )
      expect(replay.response.headers.get('x-request-id')).not.toBe(first.response.headers.get('x-request-id'))

      const mismatch = await post(metered.path, key.apiKey, metered.other, idempotencyKey)
      expect(mismatch.status).toBe(422)
      expect(mismatch.body.detail).toMatch(/Idempotency-Key was already used .* for another request/)
      expect(mismatch.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_key_mismatch' })
      expect(await fingerprint(db())).toEqual(before)
      expect(await api.balanceOf(key.id)).toBe(0)
      // The first request's debit and the drain: nothing more.
      expect(await consumes(key.id)).toBe(2)
      expect(await auditLedger(db())).toEqual([])
    })
  }

  it('a key is scoped to its API key: another API key sending the same value is answered and charged anew', async () => {
    const [one, two] = [await keyWithBalance(db(), 10_000), await keyWithBalance(db(), 10_000)]
    const idempotencyKey = `shared-${crypto.randomUUID()}`
    const body = { model: 'embeddings-v3', input: ['scoped per API key'] }
    const first = await post('/v1/embeddings', one.apiKey, body, idempotencyKey)
    const second = await post('/v1/embeddings', two.apiKey, body, idempotencyKey)
    expect([first.status, second.status]).toEqual([200, 200])
    expect(second.response.headers.get('idempotent-replayed')).toBeNull()
    expect(await api.balanceOf(one.id)).toBe(10_000 - first.body.usage.total_tokens)
    expect(await api.balanceOf(two.id)).toBe(10_000 - second.body.usage.total_tokens)
  })

  it('the path, the query and the option headers are part of the request: the same body elsewhere is 422', async () => {
    const key = await keyWithBalance(db(), 100_000)
    const idempotencyKey = `where-${crypto.randomUUID()}`
    const body = { model: 'embeddings-v3', input: ['the same body'] }
    expect((await post('/v1/embeddings', key.apiKey, body, idempotencyKey)).status).toBe(200)
    const elsewhere = await post('/v1/classify', key.apiKey, { ...body, labels: ['a', 'b'] }, idempotencyKey)
    expect(elsewhere.status).toBe(422)
    const question = meteredCalls[4].body
    const searchKey = `options-${crypto.randomUUID()}`
    expect((await post('/v1/chat/completions', key.apiKey, question, searchKey)).status).toBe(200)
    const otherOption = await post('/v1/chat/completions', key.apiKey, question, searchKey, {
      'x-reasoning-format': 'think_tags',
    })
    expect(otherOption.status).toBe(422)
  })

  it('a refused request stores nothing: after a 402 the same key, once the key is funded, is answered and charged', async () => {
    const key = await keyWithBalance(db(), 0)
    const idempotencyKey = `after-402-${crypto.randomUUID()}`
    const body = { model: 'embeddings-v3', input: ['refused first'] }
    expect((await post('/v1/embeddings', key.apiKey, body, idempotencyKey)).status).toBe(402)
    await applyEntry(db(), { keyId: key.id, amount: 1000, type: 'purchase', externalRef: `purchase:${key.id}` })
    const answered = await post('/v1/embeddings', key.apiKey, body, idempotencyKey)
    expect(answered.status).toBe(200)
    expect(answered.response.headers.get('idempotent-replayed')).toBeNull()
    expect(await api.balanceOf(key.id)).toBe(1000 - answered.body.usage.total_tokens)
    expect(
      (await post('/v1/embeddings', key.apiKey, body, idempotencyKey)).response.headers.get('idempotent-replayed'),
    ).toBe('true')
    expect(await consumes(key.id)).toBe(1)
  })

  it('duplicates sent at once: one is computed and charged, the others are told it is in flight (409) or replayed', async () => {
    const key = await keyWithBalance(db(), 1_000_000)
    const idempotencyKey = `concurrent-${crypto.randomUUID()}`
    const body = { model: 'embeddings-v3', input: Array.from({ length: 512 }, (_, i) => `text number ${i} of many`) }
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post('/v1/embeddings', key.apiKey, body, idempotencyKey)),
    )
    const computed = answers.filter((a) => a.status === 200 && !a.response.headers.has('idempotent-replayed'))
    expect(computed).toHaveLength(1)
    const inFlight = answers.filter((a) => a.status === 409)
    expect(
      inFlight.length + computed.length + answers.filter((a) => a.response.headers.has('idempotent-replayed')).length,
    ).toBe(4)
    for (const refused of inFlight) {
      expect(refused.body.detail).toMatch(/still being answered/)
      expect(refused.response.headers.get('retry-after')).toBe('1')
    }
    expect(await consumes(key.id)).toBe(1)
    expect(await api.balanceOf(key.id)).toBe(1_000_000 - computed[0].body.usage.total_tokens)
    const later = await post('/v1/embeddings', key.apiKey, body, idempotencyKey)
    expect(later.response.headers.get('idempotent-replayed')).toBe('true')
    expect(later.body).toEqual(computed[0].body)
  })

  it('reader POST: the replay does not fetch the page again', async () => {
    const key = await keyWithBalance(db(), 200_000)
    const idempotencyKey = `reader-${crypto.randomUUID()}`
    const init = {
      bearer: key.apiKey,
      json: { url: api.web.url('/article') },
      headers: { 'idempotency-key': idempotencyKey, 'x-no-cache': 'true' },
    }
    const first = await call('POST', '/r/', init)
    expect(first.status).toBe(200)
    const fetched = api.web.hits.length
    const balance = await api.balanceOf(key.id)
    const replay = await call('POST', '/r/', init)
    expect(replay.status).toBe(200)
    expect(replay.body).toBe(first.body)
    expect(replay.response.headers.get('idempotent-replayed')).toBe('true')
    expect(api.web.hits.length).toBe(fetched)
    expect(await api.balanceOf(key.id)).toBe(balance)
  })

  it('batch creation: the same key creates one batch', async () => {
    const key = await keyWithBalance(db(), 100_000)
    const line = { custom_id: 'a', method: 'POST', url: '/v1/embeddings', body: { model: 'embeddings-v3', input: 'x' } }
    const form = new FormData()
    form.set('purpose', 'batch')
    form.set('file', new Blob([`${JSON.stringify(line)}\n`]), 'batch.jsonl')
    const file = await call('POST', '/v1/files', { bearer: key.apiKey, body: form })
    expect(file.status).toBe(200)
    const body = { input_file_id: file.body.id, endpoint: '/v1/embeddings', completion_window: '24h' }
    const idempotencyKey = `batch-${crypto.randomUUID()}`
    const first = await post('/v1/batches', key.apiKey, body, idempotencyKey)
    const second = await post('/v1/batches', key.apiKey, body, idempotencyKey)
    expect([first.status, second.status]).toEqual([200, 200])
    expect(second.body.id).toBe(first.body.id)
    expect(second.response.headers.get('idempotent-replayed')).toBe('true')
    expect((await call('GET', '/v1/batches', { bearer: key.apiKey })).body.data).toHaveLength(1)
  })

  it('a streamed answer is not stored: each stream is its own request', async () => {
    const key = await keyWithBalance(db(), 1_000_000)
    const idempotencyKey = `stream-${crypto.randomUUID()}`
    const init = {
      bearer: key.apiKey,
      json: { ...(meteredCalls[4].body as object), stream: true },
      headers: { 'idempotency-key': idempotencyKey },
    }
    for (let i = 0; i < 2; i++) {
      const streamed = await respond('POST', '/v1/chat/completions', init)
      expect(streamed.status).toBe(200)
      expect(streamed.headers.get('idempotent-replayed')).toBeNull()
      await streamed.text()
    }
    expect(
      await scalar(db(), sql`select count(*) from idempotency_keys where idempotency_key = ${idempotencyKey}`),
    ).toBe(0)
  })

  it('refuses a key longer than 255 characters with 422 naming the header', async () => {
    const key = await keyWithBalance(db(), 1000)
    const refused = await post('/v1/embeddings', key.apiKey, meteredCalls[0].body, 'k'.repeat(256))
    expect(refused.status).toBe(422)
    expect(refused.body.detail[0].loc).toEqual(['header', 'idempotency-key'])
    // The draft's quoted form is the same key as the bare one.
    const bare = `quoted-${crypto.randomUUID()}`
    expect((await post('/v1/embeddings', key.apiKey, meteredCalls[0].body, bare)).status).toBe(200)
    const quoted = await post('/v1/embeddings', key.apiKey, meteredCalls[0].body, `"${bare}"`)
    expect(quoted.response.headers.get('idempotent-replayed')).toBe('true')
  })
})

describe('the window', () => {
  it('a key older than 24 hours names nothing: it is answered anew, and the hourly prune removes such rows', async () => {
    const key = await keyWithBalance(db(), 100_000)
    const idempotencyKey = `old-${crypto.randomUUID()}`
    expect((await post('/v1/embeddings', key.apiKey, meteredCalls[0].body, idempotencyKey)).status).toBe(200)
    await db().execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours' where idempotency_key = ${idempotencyKey}`,
    )
    const anew = await post('/v1/embeddings', key.apiKey, meteredCalls[0].other, idempotencyKey)
    expect(anew.status).toBe(200)
    expect(anew.response.headers.get('idempotent-replayed')).toBeNull()
    await db().execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours' where idempotency_key = ${idempotencyKey}`,
    )
    const fresh = `fresh-${crypto.randomUUID()}`
    expect((await post('/v1/embeddings', key.apiKey, meteredCalls[0].body, fresh)).status).toBe(200)
    expect(await pruneIdempotencyKeys(db())).toBeGreaterThanOrEqual(1)
    const left = sql`select idempotency_key from idempotency_keys where key_id = ${key.id}::uuid`
    expect(rowsOf(await db().execute(left))).toEqual([{ idempotency_key: fresh }])
  })

  it('a claim left in flight for 15 minutes (its process died) is taken over', async () => {
    const key = await keyWithBalance(db(), 100_000)
    const idempotencyKey = `stale-${crypto.randomUUID()}`
    await db().execute(sql`
      insert into idempotency_keys (key_id, idempotency_key, request_hash, claim, created_at)
      values (${key.id}::uuid, ${idempotencyKey}, 'x', gen_random_uuid(), now() - interval '16 minutes')`)
    expect((await post('/v1/embeddings', key.apiKey, meteredCalls[0].body, idempotencyKey)).status).toBe(200)
  })
})

describe('the openai SDK', () => {
  const viaHandler = (url: RequestInfo | URL, init?: RequestInit) => send(new Request(url, init))
  const sent: Headers[] = []
  const recording = (url: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(url, init)
    sent.push(request.headers)
    return send(request)
  }

  it('sends Idempotency-Key as a header option, and reads Idempotent-Replayed with withResponse()', async () => {
    const key = await keyWithBalance(db(), 100_000)
    const openai = new OpenAI({ apiKey: key.apiKey, baseURL: `${BASE}/v1`, fetch: viaHandler, maxRetries: 0 })
    const options = { headers: { 'Idempotency-Key': `sdk-${crypto.randomUUID()}` } }
    const request = { model: 'embeddings-v3', input: 'through the SDK' }
    const first = await openai.embeddings.create(request, options).withResponse()
    const again = await openai.embeddings.create(request, options).withResponse()
    expect(again.data).toEqual(first.data)
    expect(again.response.headers.get('idempotent-replayed')).toBe('true')
    expect(await api.balanceOf(key.id)).toBe(100_000 - first.data.usage.total_tokens)
  })

  it('`idempotencyKey` in request options is sent by a client whose idempotencyHeader is set (the stock client sends none)', async () => {
    const key = await keyWithBalance(db(), 100_000)
    const request = { model: 'embeddings-v3', input: 'idempotencyKey as a request option' }
    const idempotencyKey = `option-${crypto.randomUUID()}`

    const stock = new OpenAI({ apiKey: key.apiKey, baseURL: `${BASE}/v1`, fetch: recording, maxRetries: 0 })
    sent.length = 0
    await stock.embeddings.create(request, { idempotencyKey })
    expect(sent[0].get('idempotency-key')).toBeNull()

    class IdempotentOpenAI extends OpenAI {
      protected override idempotencyHeader = 'Idempotency-Key'
    }
    const client = new IdempotentOpenAI({ apiKey: key.apiKey, baseURL: `${BASE}/v1`, fetch: recording, maxRetries: 0 })
    sent.length = 0
    const first = await client.embeddings.create(request, { idempotencyKey }).withResponse()
    const again = await client.embeddings.create(request, { idempotencyKey }).withResponse()
    expect(sent.map((headers) => headers.get('idempotency-key'))).toEqual([idempotencyKey, idempotencyKey])
    expect(first.response.headers.get('idempotent-replayed')).toBeNull()
    expect(again.response.headers.get('idempotent-replayed')).toBe('true')
    expect(again.data).toEqual(first.data)
    expect(await consumes(key.id)).toBe(2)
  })
})
