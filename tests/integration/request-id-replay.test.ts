import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyEntry, auditLedger } from '~/server/domain/ledger'
import { call, fingerprint, keyWithBalance, respond, scalar } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'
import { uploadForm } from '../support/bulk'

const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', DEEPSEARCH_ENGINE: 'builtin' })

const many = (count: number) => Array.from({ length: count }, (_, i) => `replayed input number ${i} about rerankers`)

/** Each metered API with a small request to spend an id on, and a big one to try that id again with. */
const meteredCalls: Array<{ api: string; path: string; small: unknown; big: unknown }> = [
  {
    api: 'embeddings',
    path: '/v1/embeddings',
    small: { model: 'embeddings-v3', input: ['a small request'] },
    big: { model: 'embeddings-v3', input: many(1024) },
  },
  {
    api: 'rerank',
    path: '/v1/rerank',
    small: { model: 'reranker-v3', query: 'rerankers', documents: ['one document'] },
    big: { model: 'reranker-v3', query: 'rerankers', documents: many(1024) },
  },
  {
    api: 'classify',
    path: '/v1/classify',
    small: { model: 'embeddings-v3', input: ['a small request'], labels: ['news', 'sport'] },
    big: { model: 'embeddings-v3', input: many(1024), labels: ['news', 'sport'] },
  },
  {
    api: 'train',
    path: '/v1/train',
    small: { model: 'embeddings-v3', input: [{ text: 'a small request', label: 'news' }] },
    big: { model: 'embeddings-v3', input: many(1024).map((text, i) => ({ text, label: i % 2 ? 'a' : 'b' })) },
  },
]

/** Takes what is left of a key's balance, so a fresh request would get 402. */
async function drain(keyId: string) {
  const balance = await api.balanceOf(keyId)
  if (balance > 0)
    await applyEntry(api.database.db, {
      keyId,
      amount: -balance,
      type: 'consume',
      externalRef: `usage:drain:${keyId}`,
      product: 'test',
    })
}

describe('a replayed X-Request-Id never buys a second answer', () => {
  for (const metered of meteredCalls) {
    it(`${metered.api}: at balance 0 an id already answered is refused with 409 before any work, with any body`, async () => {
      const key = await keyWithBalance(api.database.db, 200_000)
      const id = `replay-${metered.api}-${crypto.randomUUID()}`
      const first = await call('POST', metered.path, {
        bearer: key.apiKey,
        json: metered.small,
        headers: { 'x-request-id': id },
      })
      expect(first.status).toBe(200)
      await drain(key.id)
      const fresh = await call('POST', metered.path, { bearer: key.apiKey, json: metered.small })
      expect(fresh.status).toBe(402)

      const before = await fingerprint(api.database.db)
      for (const body of [metered.big, metered.small]) {
        const replay = await call('POST', metered.path, {
          bearer: key.apiKey,
          json: body,
          headers: { 'x-request-id': id },
        })
        expect(replay.status).toBe(409)
        expect(replay.body.detail).toMatch(/X-Request-Id was already used/)
      }
      expect(await fingerprint(api.database.db)).toEqual(before)
      expect(await api.balanceOf(key.id)).toBe(0)
      expect(await auditLedger(api.database.db)).toEqual([])
    })
  }

  it('reader: a keyed read sent again with its id is refused before the page is fetched again', async () => {
    const key = await keyWithBalance(api.database.db, 200_000)
    const id = `replay-reader-${crypto.randomUUID()}`
    const path = `/r/${api.web.url('/article')}`
    const headers = { 'x-request-id': id, 'x-no-cache': 'true' }
    expect((await call('GET', path, { bearer: key.apiKey, headers })).status).toBe(200)
    const fetched = api.web.hits.length
    const replay = await call('GET', path, { bearer: key.apiKey, headers })
    expect(replay.status).toBe(409)
    expect(api.web.hits.length).toBe(fetched)
  })

  it('deep search and bulk jobs charge a replayed id anew: at balance 0 it gets 402, not an answer', async () => {
    const key = await keyWithBalance(api.database.db, 1_000_000)
    const id = `replay-deepsearch-${crypto.randomUUID()}`
    const question = {
      model: 'deepsearch-v1',
      messages: [{ role: 'user', content: 'Which reranker reads 64 documents?' }],
    }
    const init = { bearer: key.apiKey, json: question, headers: { 'x-request-id': id } }
    expect((await call('POST', '/v1/chat/completions', init)).status).toBe(200)
    await drain(key.id)
    const replayed = await respond('POST', '/v1/chat/completions', init)
    expect(replayed.status).toBe(402)
    const streamed = await respond('POST', '/v1/chat/completions', {
      ...init,
      json: { ...question, stream: true },
    })
    expect(streamed.status).toBe(402)

    const form = uploadForm('texts.txt', 'one text\nanother text\n', { model: 'embeddings-v3' })
    const upload = await call('POST', '/v1/bulk-embeddings', {
      bearer: key.apiKey,
      body: form,
      headers: { 'x-request-id': id },
    })
    expect(upload.status).toBe(402)
    expect(await api.balanceOf(key.id)).toBe(0)
  })
})

describe('an id whose request failed may be sent again', () => {
  let upstream: Server
  let calls = 0
  beforeAll(async () => {
    // Fails the first embeddings call, answers the next: a request the server gave back the tokens of.
    upstream = createServer((request, response) => {
      let text = ''
      request.on('data', (chunk) => (text += chunk))
      request.on('end', () => {
        calls++
        if (calls === 1) {
          response.writeHead(503, { 'content-type': 'application/json' })
          return void response.end(JSON.stringify({ detail: 'busy' }))
        }
        const { input } = JSON.parse(text) as { input: string[] }
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(
          JSON.stringify({
            model: 'upstream-model',
            data: input.map((_, index) => ({ index, embedding: [0.6, 0.8] })),
            usage: { total_tokens: 1 },
          }),
        )
      })
    })
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
    process.env.INFERENCE_ENGINE = 'upstream'
    process.env.UPSTREAM_API_BASE_URL = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`
  })
  afterAll(async () => {
    delete process.env.INFERENCE_ENGINE
    delete process.env.UPSTREAM_API_BASE_URL
    upstream.closeAllConnections()
    await new Promise((resolve) => upstream.close(resolve))
  })

  it('is computed and charged once more after the failure gave its tokens back, then refused as answered', async () => {
    const key = await keyWithBalance(api.database.db, 10_000)
    const id = `retry-after-failure-${crypto.randomUUID()}`
    const send = () =>
      call('POST', '/v1/embeddings', {
        bearer: key.apiKey,
        json: { model: 'embeddings-v3', input: ['a text to embed'] },
        headers: { 'x-request-id': id },
      })
    expect((await send()).status).toBeGreaterThanOrEqual(500)
    expect(await api.balanceOf(key.id)).toBe(10_000)
    const retried = await send()
    expect(retried.status).toBe(200)
    const charged = retried.body.usage.total_tokens
    expect(await api.balanceOf(key.id)).toBe(10_000 - charged)
    expect((await send()).status).toBe(409)
    expect(await api.balanceOf(key.id)).toBe(10_000 - charged)
    const debits = sql`select count(*) from ledger_entries where key_id = ${key.id}::uuid and type = 'consume'`
    expect(await scalar(api.database.db, debits)).toBe(2)
  })
})
