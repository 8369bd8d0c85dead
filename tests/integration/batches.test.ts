import OpenAI, { toFile } from 'openai'
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { batchLimits } from '~/contracts/batches'
import { call, keyWithBalance, scalar, send } from '../support/api'
import { bulkTestDatabase, drainQueue } from '../support/bulk'

/** The Batch API through the real handler, with the `openai` SDK as its users call it. */
const { database } = bulkTestDatabase('batches')

const client = (apiKey: string) =>
  new OpenAI({
    apiKey,
    baseURL: 'http://localhost:3000/v1',
    maxRetries: 0,
    fetch: (url, init) => send(new Request(url as string, init as RequestInit)),
  })
const jsonl = (lines: unknown[]) => lines.map((line) => JSON.stringify(line)).join('\n') + '\n'
const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const batchDebits = (jobHex: string) =>
  scalar(
    database.db,
    sql`select coalesce(-sum(amount), 0) from ledger_entries where type = 'consume' and external_ref like ${`usage:batch:%`} and external_ref like ${`%${jobHex.slice(0, 8)}%`}`,
  )
const linesOf = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))

async function waitFor(openai: OpenAI, id: string, status: string) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const batch = await openai.batches.retrieve(id)
    if (batch.status === status) return batch
    await drainQueue(database.db)
  }
  throw new Error(`batch ${id} never reached ${status}`)
}

describe('the Batch API with the openai SDK', () => {
  it('uploads a JSONL file, runs it, and gives the output and error files; charges half, once', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const openai = client(key.apiKey)
    const requests = [
      {
        custom_id: 'emb-1',
        method: 'POST',
        url: '/v1/embeddings',
        body: { model: 'embeddings-v3', input: ['Paris is the capital of France', 'vector search'] },
      },
      ...Array.from({ length: batchLimits.linesPerPart + 3 }, (_, i) => ({
        custom_id: `emb-${i + 2}`,
        method: 'POST',
        url: '/v1/embeddings',
        body: { model: 'embeddings-v3', input: `text number ${i}` },
      })),
      { custom_id: 'bad-model', method: 'POST', url: '/v1/embeddings', body: { model: 'no-such-model', input: 'x' } },
    ]
    const file = await openai.files.create({
      file: await toFile(Buffer.from(jsonl(requests)), 'requests.jsonl'),
      purpose: 'batch',
    })
    expect(file).toMatchObject({ object: 'file', purpose: 'batch', filename: 'requests.jsonl' })
    expect((await openai.files.retrieve(file.id)).bytes).toBe(Buffer.byteLength(jsonl(requests)))

    const created = await openai.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/embeddings',
      completion_window: '24h',
      metadata: { run: 'nightly' },
    })
    expect(created).toMatchObject({
      object: 'batch',
      status: 'validating',
      request_counts: { total: requests.length, completed: 0, failed: 0 },
      metadata: { run: 'nightly' },
    })
    const before = await balanceOf(key.id)
    const done = await waitFor(openai, created.id, 'completed')
    expect(done.request_counts).toEqual({ total: requests.length, completed: requests.length - 1, failed: 1 })
    expect(done.output_file_id).toBeTruthy()
    expect(done.error_file_id).toBeTruthy()

    const output = linesOf(await (await openai.files.content(done.output_file_id!)).text())
    expect(output.map((line) => line.custom_id)).toEqual(requests.slice(0, -1).map((r) => r.custom_id))
    const first = output[0]
    expect(first.response.status_code).toBe(200)
    expect(first.error).toBeNull()
    expect(first.response.body.data).toHaveLength(2)
    expect(first.response.body.data[0].embedding.length).toBeGreaterThan(8)
    // The same request sent on its own gives the same vector.
    const single = await openai.embeddings.create({ model: 'embeddings-v3', input: 'Paris is the capital of France' })
    expect(first.response.body.data[0].embedding).toEqual(single.data[0].embedding)

    const errors = linesOf(await (await openai.files.content(done.error_file_id!)).text())
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ custom_id: 'bad-model', response: { status_code: 422 } })

    // Half the tokens of the answered lines, rounded up, in one debit per part.
    const full = output.reduce((sum, line) => sum + line.response.body.usage.total_tokens, 0)
    const charged = before - (await balanceOf(key.id)) - single.usage.total_tokens
    expect(charged).toBeGreaterThanOrEqual(Math.ceil(full / 2))
    expect(charged).toBeLessThanOrEqual(Math.ceil(full / 2) + 2)
    // Working the queue again charges nothing more.
    const after = await balanceOf(key.id)
    await drainQueue(database.db)
    expect(await balanceOf(key.id)).toBe(after)
    expect(await batchDebits(done.id.slice(6))).toBeGreaterThan(0)

    // Listed, newest first, with after/limit pages; the key's files too.
    const second = await openai.batches.create({
      input_file_id: file.id,
      endpoint: '/v1/embeddings',
      completion_window: '24h',
    })
    const page = await openai.batches.list({ limit: 1 })
    expect(page.data.map((b) => b.id)).toEqual([second.id])
    expect(page.has_more).toBe(true)
    const next = await openai.batches.list({ limit: 1, after: second.id })
    expect(next.data.map((b) => b.id)).toEqual([done.id])
    const files = await openai.files.list()
    expect(files.data.map((f) => f.id)).toEqual(expect.arrayContaining([file.id, done.output_file_id!]))

    // Cancelled before it runs: it ends cancelled, and costs nothing.
    const cancelled = await openai.batches.cancel(second.id)
    expect(['cancelling', 'cancelled']).toContain(cancelled.status)
    expect((await openai.batches.retrieve(second.id)).status).toBe('cancelled')
    const balance = await balanceOf(key.id)
    await drainQueue(database.db)
    expect(await balanceOf(key.id)).toBe(balance)
    await expect(openai.batches.cancel(second.id)).rejects.toMatchObject({ status: 409 })

    // Another key sees none of it.
    const other = client((await keyWithBalance(database.db, 1000)).apiKey)
    await expect(other.batches.retrieve(done.id)).rejects.toMatchObject({ status: 404 })
    await expect(other.files.retrieve(file.id)).rejects.toMatchObject({ status: 404 })
    await expect(other.files.content(done.output_file_id!)).rejects.toMatchObject({ status: 404 })
    await expect(other.batches.cancel(done.id)).rejects.toMatchObject({ status: 404 })
    expect((await other.batches.list()).data).toEqual([])
    expect((await other.files.list()).data).toEqual([])

    // Deleted files are gone.
    expect(await openai.files.delete(file.id)).toMatchObject({ id: file.id, deleted: true })
    await expect(openai.files.retrieve(file.id)).rejects.toMatchObject({ status: 404 })
  }, 120_000)

  it('ranks documents and classifies texts in a batch', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const openai = client(key.apiKey)
    const run = async (url: string, body: unknown) => {
      const file = await openai.files.create({
        file: await toFile(Buffer.from(jsonl([{ custom_id: 'one', method: 'POST', url, body }])), 'one.jsonl'),
        purpose: 'batch',
      })
      const batch = await openai.batches.create({
        input_file_id: file.id,
        endpoint: url as '/v1/embeddings',
        completion_window: '24h',
      })
      const done = await waitFor(openai, batch.id, 'completed')
      return linesOf(await (await openai.files.content(done.output_file_id!)).text())[0].response.body
    }
    const ranked = await run('/v1/rerank', {
      model: 'reranker-v3',
      query: 'capital of France',
      documents: ['Berlin is the capital of Germany', 'Paris is the capital of France'],
    })
    expect(ranked.results[0].index).toBe(1)
    const classified = await run('/v1/classify', {
      model: 'embeddings-v3',
      input: ['How do I change my password?'],
      labels: ['order shipping delivery', 'account password login'],
    })
    expect(classified.data[0].prediction).toBe('account password login')
  }, 60_000)

  it('refuses a file whose lines are not requests to the endpoint, naming the line', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const form = new FormData()
    form.append('purpose', 'batch')
    const lines = jsonl([
      { custom_id: 'a', method: 'POST', url: '/v1/embeddings', body: { model: 'embeddings-v3', input: 'x' } },
      { custom_id: 'a', method: 'POST', url: '/v1/embeddings', body: { model: 'embeddings-v3', input: 'y' } },
    ])
    form.append('file', new Blob([lines]), 'dup.jsonl')
    const encoded = new Response(form)
    const uploaded = await call('POST', '/v1/files', {
      bearer: key.apiKey,
      headers: { 'content-type': encoded.headers.get('content-type')! },
      body: await encoded.blob(),
    })
    expect(uploaded.status).toBe(200)
    const refused = await call('POST', '/v1/batches', {
      bearer: key.apiKey,
      json: { input_file_id: uploaded.body.id, endpoint: '/v1/embeddings', completion_window: '24h' },
    })
    expect(refused.status).toBe(422)
    expect(refused.body.detail[0].msg).toMatch(/line 2: custom_id "a" is used by an earlier line/)
    const wrongPurpose = await call('POST', '/v1/files', {
      bearer: key.apiKey,
      headers: { 'content-type': encoded.headers.get('content-type')! },
      body: await new Response(
        (() => {
          const f = new FormData()
          f.append('purpose', 'fine-tune')
          f.append('file', new Blob([lines]), 'x.jsonl')
          return f
        })(),
      ).blob(),
    })
    expect(wrongPurpose.status).toBe(422)
  })
})
