import { sql } from 'drizzle-orm'
import { existsSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { bulkLimits } from '~/contracts/bulk'
import { bodyLimitFor } from '~/server/http/body-limit'
import { countTokens } from '../support/tokens'
import { bulkTestDatabase, downloadResult, drainQueue, jobOf, upload, uploadForm } from '../support/bulk'
import { call, fingerprint, keyWithBalance, scalar, send } from '../support/api'

const { database, dataDir } = bulkTestDatabase('bulk')

/** Job folders in local storage: an upload refused part way must leave none behind. */
const storedJobs = () => (existsSync(`${dataDir}/objects/bulk`) ? readdirSync(`${dataDir}/objects/bulk`).length : 0)
const balanceOf = (id: string) => scalar(database.db, sql`select balance from api_keys where id = ${id}::uuid`)
const tokensOf = (texts: string[]) => texts.reduce((sum, text) => sum + countTokens(text), 0)
const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0)

describe('a bulk embedding job', () => {
  it('embeds every text of a CSV, charges its tokens once, and gives them back in input order with their ids', async () => {
    const key = await keyWithBalance(database.db, 1_000_000)
    const texts = Array.from(
      { length: 600 },
      (_, i) => `Product ${i}: a "quoted", comma-separated description number ${i}`,
    )
    const csv = ['id,text', ...texts.map((text, i) => `sku-${i},"${text.replace(/"/g, '""')}"`)].join('\r\n')
    const { status, body: job } = await upload(
      key.apiKey,
      uploadForm('catalog.csv', csv, { model: 'embeddings-v3', email: 'ops@example.com' }),
    )
    expect(status).toBe(200)
    expect(job).toMatchObject({
      status: 'waiting',
      file_name: 'catalog.csv',
      model_name: 'embeddings-v3',
      total_rows: 600,
      processed_rows: 0,
      user_email: 'ops@example.com',
    })
    expect(job._id).toBe(job.id)
    expect(job.total_token_count).toBe(tokensOf(texts))

    await drainQueue(database.db)

    const { body: done } = await jobOf(key.apiKey, job.id)
    const tokens = tokensOf(texts)
    expect(done).toMatchObject({
      status: 'completed',
      processed_rows: 600,
      used_token_count: tokens,
      error: null,
      downloadable: true,
    })
    expect(done.completed_at).not.toBeNull()
    expect(await balanceOf(key.id)).toBe(1_000_000 - tokens)

    const lines = await downloadResult(key.apiKey, job.id)
    expect(lines.map((line) => line.index)).toEqual(texts.map((_, i) => i))
    expect(lines.map((line) => line.id)).toEqual(texts.map((_, i) => `sku-${i}`))
    const { body: single } = await call('POST', '/v1/embeddings', {
      bearer: key.apiKey,
      json: { model: 'embeddings-v3', input: [texts[42]] },
    })
    expect(cosine(lines[42].embedding, single.data[0].embedding)).toBeCloseTo(1, 5)

    const mails = await scalar(
      database.db,
      sql`select count(*) from email_outbox where kind = 'bulk-job-completed' and "to" = 'ops@example.com'`,
    )
    expect(mails).toBe(1)
  })

  it('reads a text file as one text per line, skipping blank lines', async () => {
    const key = await keyWithBalance(database.db, 100_000)
    const { body: job } = await upload(
      key.apiKey,
      uploadForm('notes.txt', 'first line\n\n  second line  \r\nthird line', { model: 'embeddings-v3' }),
    )
    expect(job.total_rows).toBe(3)
    await drainQueue(database.db)
    const lines = await downloadResult(key.apiKey, job.id)
    expect(lines).toHaveLength(3)
    expect(lines[2]).not.toHaveProperty('id')
  })

  it("cuts a text longer than the model's input to its limit and charges what it embeds", async () => {
    const key = await keyWithBalance(database.db, 100_000)
    const long = 'tokens '.repeat(12_000)
    const { body: job } = await upload(
      key.apiKey,
      uploadForm('long.txt', `short text\n${long}`, { model: 'embeddings-v3' }),
    )
    expect(job.total_token_count).toBe(countTokens('short text') + 8192)
    await drainQueue(database.db)
    expect((await jobOf(key.apiKey, job.id)).body).toMatchObject({
      status: 'completed',
      used_token_count: job.total_token_count,
    })
    expect(await balanceOf(key.id)).toBe(100_000 - job.total_token_count)
  })
})

describe('an upload that cannot become a job', () => {
  const refusals: Array<[string, () => FormData, number, RegExp]> = [
    [
      'no file',
      () => {
        const f = new FormData()
        f.append('model', 'embeddings-v3')
        return f
      },
      422,
      /file/,
    ],
    ['a PDF', () => uploadForm('paper.pdf', '%PDF-1.7', { model: 'embeddings-v3' }), 422, /\.csv, \.tsv or \.txt/],
    [
      'a CSV without a text column',
      () => uploadForm('a.csv', 'title,body\nx,y', { model: 'embeddings-v3' }),
      422,
      /has no .{1,2}text.{1,2} column/,
    ],
    [
      'a file that is not UTF-8',
      () => uploadForm('a.txt', new Uint8Array([0x68, 0xff, 0xfe, 0x0a]), { model: 'embeddings-v3' }),
      422,
      /UTF-8/,
    ],
    ['an empty file', () => uploadForm('a.txt', '\n\n', { model: 'embeddings-v3' }), 422, /no text/],
    [
      'an unknown model',
      () => uploadForm('a.txt', 'hello', { model: 'gpt-banana' }),
      422,
      /not a model of the catalogue: this server serves .*embeddings-v3/,
    ],
    ['no model', () => uploadForm('a.txt', 'hello'), 422, /model/],
    ['a bad e-mail', () => uploadForm('a.txt', 'hello', { model: 'embeddings-v3', email: 'not-mail' }), 422, /e-mail/],
    [
      'a text over the length limit',
      () => uploadForm('a.txt', `ok\n${'x'.repeat(100_001)}`, { model: 'embeddings-v3' }),
      422,
      /text 2 is 100,001 characters/,
    ],
    [
      'more texts than a job takes',
      () => uploadForm('a.txt', 'a\n'.repeat(100_001), { model: 'embeddings-v3' }),
      422,
      /more than 100,000 texts/,
    ],
  ]
  it.each(refusals)('refuses %s, and stores and charges nothing', async (_, form, status, detail) => {
    const key = await keyWithBalance(database.db, 1000)
    const before = await fingerprint(database.db)
    const jobs = await scalar(database.db, sql`select count(*) from bulk_jobs`)
    const stored = storedJobs()
    const answer = await upload(key.apiKey, form())
    expect(answer.status).toBe(status)
    expect(JSON.stringify(answer.body.detail)).toMatch(detail)
    expect(await fingerprint(database.db)).toEqual(before)
    expect(await scalar(database.db, sql`select count(*) from bulk_jobs`)).toBe(jobs)
    expect(storedJobs()).toBe(stored)
  })

  it('refuses a key with no balance with 402 before reading the file', async () => {
    const key = await keyWithBalance(database.db, 0)
    const answer = await upload(key.apiKey, uploadForm('a.txt', 'hello', { model: 'embeddings-v3' }))
    expect(answer.status).toBe(402)
  })

  it('refuses a missing key with 401', async () => {
    const answer = await upload('', uploadForm('a.txt', 'hello', { model: 'embeddings-v3' }))
    expect(answer.status).toBe(401)
  })
})

describe('a file over the size limit', () => {
  it('is refused with 413 after reading about its limit, never the rest, and stores nothing', async () => {
    const key = await keyWithBalance(database.db, 1000)
    const stored = storedJobs()
    const boundary = 'x-bulk-boundary'
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nembeddings-v3\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    )
    const line = new TextEncoder().encode(`${'a long text to embed '.repeat(100)}\n`.repeat(32))
    const total = 200 * 1024 * 1024
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head)
        else if (sent > total) return controller.close()
        controller.enqueue(line)
        sent += line.byteLength
      },
    })
    const request = new Request('http://localhost:3000/v1/bulk-embeddings', {
      method: 'POST',
      headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit)
    expect(bodyLimitFor('/v1/bulk-embeddings')).toEqual({
      bytes: bulkLimits.maxFileBytes + 64 * 1024,
      read: 'streamed',
    })
    const answer = await send(request)
    expect(answer.status).toBe(413)
    expect((await answer.json()).detail).toMatch(/larger than the limit of 100 MiB/)
    expect(sent).toBeLessThan(bulkLimits.maxFileBytes + 4 * 1024 * 1024)
    expect(storedJobs()).toBe(stored)
  })
})
