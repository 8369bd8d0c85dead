import { sql } from 'drizzle-orm'
import { existsSync, readdirSync, readlinkSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { bulkTestDatabase, uploadForm } from '../support/bulk'
import { buildRequest, fingerprint, keyWithBalance, scalar, send } from '../support/api'

/**
 * Whatever the file and however the request ends, an upload that does not become a job is answered at
 * once and leaves nothing behind: no open file, no `.partial` file, no job row, no charge.
 */
const { database, dataDir } = bulkTestDatabase('bulk-leftovers')

const objectsDir = resolve(dataDir, 'objects')

/** Every file under the storage folder (partial files included). */
function storedFiles(dir = objectsDir): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? storedFiles(resolve(dir, entry.name)) : [resolve(dir, entry.name)],
  )
}

/** This process's open file descriptors that point into the storage folder. */
function openStorageFiles(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`)
      return target.startsWith(objectsDir) ? [target] : []
    } catch {
      return []
    }
  })
}

/** The route's answer, or a failure naming how long it waited: a refusal must not wait for anything. */
async function answerWithin(request: Request, ms: number): Promise<Response> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([send(request), late])
  } finally {
    clearTimeout(timer)
  }
}

async function uploadRequest(bearer: string, form: FormData): Promise<Request> {
  const encoded = new Response(form)
  const headers = { 'content-type': encoded.headers.get('content-type')! }
  return buildRequest('POST', '/v1/bulk-embeddings', { bearer, headers, body: await encoded.blob() })
}

/** What a refusal must leave unchanged, read before and after. */
async function state() {
  return {
    ledger: await fingerprint(database.db),
    jobs: await scalar(database.db, sql`select count(*) from bulk_jobs`),
    files: storedFiles(),
    open: openStorageFiles(),
  }
}

const latin1 = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)))

describe('a file the parser refuses', () => {
  const refused: Array<[string, string, Uint8Array<ArrayBuffer> | string, RegExp]> = [
    ['a CSV that is not UTF-8', 'x.csv', latin1('text\ncaf\xe9\n'), /not UTF-8/],
    ['a TSV that is not UTF-8', 'x.tsv', latin1('text\tlabel\ncaf\xe9\tdrink\n'), /not UTF-8/],
    ['a text file that is not UTF-8', 'x.txt', latin1('caf\xe9\n'), /not UTF-8/],
    [
      'a CSV whose bad byte comes after many good rows',
      'late.csv',
      latin1(`text\n${'fine row\n'.repeat(20_000)}caf\xe9\n`),
      /not UTF-8/,
    ],
    ['a CSV with an unterminated quote', 'quote.csv', 'text\n"never closed\n', /not a valid CSV/],
    ['a CSV with a stray quote inside a field', 'stray.csv', 'text\nab"c"d\n', /not a valid CSV/],
    ['a CSV without a text column', 'cols.csv', 'title,body\nx,y\n', /no .{1,2}text.{1,2} column/],
    ['a TSV without a text column', 'cols.tsv', 'title\tbody\nx\ty\n', /no .{1,2}text.{1,2} column/],
    ['a CSV with a text over the length limit', 'long.csv', `text\nok\n${'x'.repeat(100_001)}\n`, /100,001 characters/],
    ['a CSV with more texts than a job takes', 'many.csv', `text\n${'a\n'.repeat(100_001)}`, /more than 100,000/],
    ['a CSV that holds no text', 'empty.csv', 'text\n\n', /no text/],
    ['a PDF', 'paper.pdf', '%PDF-1.7', /\.csv, \.tsv or \.txt/],
  ]
  it.each(refused)('answers %s with 422 at once and leaves nothing behind', async (_, name, content, detail) => {
    const key = await keyWithBalance(database.db, 1000)
    const before = await state()
    const answer = await answerWithin(
      await uploadRequest(key.apiKey, uploadForm(name, content as Uint8Array<ArrayBuffer>, { model: 'embeddings-v3' })),
      5_000,
    )
    expect(answer.status).toBe(422)
    expect(JSON.stringify((await answer.json()).detail)).toMatch(detail)
    expect(await state()).toEqual(before)
  })
})

describe('a client that goes away part way through its upload', () => {
  /** The socket closing mid-body reaches the route as the request's stream failing after `sent` bytes. */
  function abandonedUpload(bearer: string, name: string, firstRows: string): Request {
    const boundary = 'x-abandoned-boundary'
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nembeddings-v3\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        `Content-Type: text/plain\r\n\r\n${firstRows}`,
    )
    let pulls = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pulls++
        if (pulls === 1) return controller.enqueue(head)
        // Give the route time to open its partial file before the connection drops.
        await new Promise((r) => setTimeout(r, 50))
        controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
      },
    })
    return new Request('http://localhost:3000/v1/bulk-embeddings', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'x-forwarded-for': '203.0.113.7',
      },
      body,
      duplex: 'half',
    } as RequestInit)
  }

  it.each([
    ['a CSV', 'part.csv', `id,text\n${'1,a row of the file\n'.repeat(5_000)}`],
    ['a TSV', 'part.tsv', `id\ttext\n${'1\ta row of the file\n'.repeat(5_000)}`],
    ['a text file', 'part.txt', 'a row of the file\n'.repeat(5_000)],
  ])('leaves no open file, no partial file and no job for %s', async (_, name, firstRows) => {
    const key = await keyWithBalance(database.db, 1000)
    const before = await state()
    const answer = await answerWithin(abandonedUpload(key.apiKey, name, firstRows), 5_000)
    expect(answer.status).toBe(400)
    expect(await state()).toEqual(before)
  })
})
