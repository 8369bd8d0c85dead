import { existsSync, readdirSync, readlinkSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { keyFrom } from '../support/trial-key'
import { serveBuild, useServer } from './support/server'

/**
 * Uploads that never become jobs, against the production build with its own data folder: clients that
 * drop the connection part way through the file, and files the parser refuses. Afterwards the server holds
 * no more open files than before and its storage folder is as it was.
 */
// A hundred uploads from one key in a minute: the per-key limit would answer 429 long before the end.
const server = useServer(() =>
  serveBuild({ DATABASE_URL: '', CAPTCHA_DIFFICULTY: '20', JOB_WORKER: 'off', RATE_LIMIT_KEYS: 'off' }),
)
let apiKey: string
beforeAll(async () => {
  apiKey = await keyFrom(server.baseUrl)
})

/**
 * What the server process has open: files by path, and how many sockets, pipes and the like. The embedded
 * database opens its own files as its tables are first touched; they are its business, not an upload's.
 */
function openByServer(): { files: string[]; others: number } {
  const dir = `/proc/${server.child.pid}/fd`
  const targets = readdirSync(dir).flatMap((fd) => {
    try {
      return [readlinkSync(join(dir, fd))]
    } catch {
      return []
    }
  })
  const files = targets.filter((target) => target.startsWith('/'))
  return {
    files: files.filter((file) => !file.startsWith(join(server.dataDir, 'pglite'))).sort(),
    others: targets.length - files.length,
  }
}

/** Every file under the server's storage folder, partial files included. */
function storedFiles(dir = join(server.dataDir, 'objects')): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? storedFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

const boundary = 'x-e2e-upload-boundary'
function multipartHead(fileName: string): Buffer {
  return Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nembeddings-v3\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  )
}
const multipartTail = Buffer.from(`\r\n--${boundary}--\r\n`)

function requestHead(length: number): string {
  const url = new URL(server.baseUrl)
  return (
    `POST /v1/bulk-embeddings HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${apiKey}\r\n` +
    `content-type: multipart/form-data; boundary=${boundary}\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`
  )
}

async function until(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * Sends the head of an upload whose body says it is `declared` bytes long, and the first rows of the
 * file; once the server is writing it to storage, drops the connection.
 */
async function abandonedUpload(fileName: string, firstRows: string): Promise<void> {
  const head = multipartHead(fileName)
  const url = new URL(server.baseUrl)
  const socket = connect(Number(url.port), url.hostname)
  socket.on('error', () => undefined)
  await new Promise<void>((resolve) => socket.once('connect', resolve))
  socket.write(requestHead(head.length + 10 * 1024 * 1024))
  socket.write(head)
  socket.write(firstRows)
  await until(() => storedFiles().some((file) => file.endsWith('.partial')), 5_000, 'no partial file was written')
  socket.destroy()
}

/** Sends a whole upload of `file` and reads the answer, which must come within `ms`. */
function wholeUpload(fileName: string, file: Buffer, ms: number): Promise<{ status: number; body: string }> {
  const body = Buffer.concat([multipartHead(fileName), file, multipartTail])
  const url = new URL(server.baseUrl)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname)
    let received = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no answer to ${fileName} within ${ms} ms`))
    }, ms)
    socket.on('data', (data) => (received += data))
    socket.on('error', () => undefined)
    socket.on('close', () => {
      clearTimeout(timer)
      const [head, text = ''] = received.split('\r\n\r\n')
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), body: text })
    })
    // Not end(): a half-closed connection reads to Node's server as a client gone before its answer.
    socket.write(requestHead(body.length))
    socket.write(body)
  })
}

const latin1 = (text: string) => Buffer.from(text, 'latin1')
const refusedFiles: Array<[string, Buffer, RegExp]> = [
  ['x.csv', latin1('text\ncaf\xe9\n'), /not UTF-8/],
  ['x.tsv', latin1('text\tlabel\ncaf\xe9\tdrink\n'), /not UTF-8/],
  ['x.txt', latin1('caf\xe9\n'), /not UTF-8/],
  ['quote.csv', Buffer.from('text\n"never closed\n'), /not a valid CSV/],
  ['columns.csv', Buffer.from('title,body\nx,y\n'), /no .{1,2}text.{1,2} column/],
  ['paper.pdf', Buffer.from('%PDF-1.7'), /\.csv, \.tsv or \.txt/],
]
const partialFiles: Array<[string, string]> = [
  ['part.csv', `id,text\n${'1,a row of the file\n'.repeat(200)}`],
  ['part.tsv', `id\ttext\n${'1\ta row of the file\n'.repeat(200)}`],
  ['part.txt', 'a row of the file\n'.repeat(200)],
]

describe('uploads that never become jobs', () => {
  it('leave the server with no more open files and nothing in storage after 50 dropped and 50 refused', async () => {
    // One refusal first, so whatever the server opens once (modules, the database) is open before counting.
    expect((await wholeUpload('warm.txt', latin1('caf\xe9'), 10_000)).status).toBe(422)
    const before = { open: openByServer(), stored: storedFiles() }

    for (let i = 0; i < 50; i++) {
      const [fileName, firstRows] = partialFiles[i % partialFiles.length]
      await abandonedUpload(fileName, firstRows)
    }
    for (let i = 0; i < 50; i++) {
      const [fileName, file, detail] = refusedFiles[i % refusedFiles.length]
      const answer = await wholeUpload(fileName, file, 5_000)
      expect(answer.status, fileName).toBe(422)
      expect(JSON.stringify(JSON.parse(answer.body).detail)).toMatch(detail)
    }

    // The server sees each dropped connection a moment after it happens.
    await until(
      () => {
        const now = openByServer()
        return now.files.join() === before.open.files.join() && now.others <= before.open.others
      },
      10_000,
      `open files did not come back to ${JSON.stringify(before.open)}: ${JSON.stringify(openByServer())}`,
    ).catch((error: Error) => expect.fail(error.message))
    expect(storedFiles()).toEqual(before.stored)
    const jobs = await fetch(`${server.baseUrl}/v1/bulk-embeddings`, { headers: { authorization: `Bearer ${apiKey}` } })
    expect(await jobs.json()).toMatchObject({ data: [] })
    expect((await fetch(`${server.baseUrl}/healthz/live`)).status).toBe(200)
  })
})
