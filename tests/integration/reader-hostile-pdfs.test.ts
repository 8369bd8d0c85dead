import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { call, keyWithBalance, scalar } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'
import { circularPdf, garbagePdf, layeredPdfBomb, pdfBomb, truncatedPdf } from '../support/pdf'

/**
 * Issue 38: PDFs were parsed on the server's event loop with no bound on what their streams inflate to (a
 * 311 KB PDF inflated to 300 MiB, a 1 MB one to 1 GiB: 2.5 s stalled, 2.3 GB resident), and a page tree that
 * contains itself answered 500. PDFs are read in the converter processes now, within their limits (their time
 * limit: reader-hostile-pages.test.ts).
 */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_CACHE_TTL_SECONDS: '3600' })

const json = { accept: 'application/json', 'x-no-cache': 'true' }
const read = (path: string, key: { apiKey: string }) =>
  call('GET', `/r/${api.web.url(path)}`, { bearer: key.apiKey, headers: json })
const cachedRows = (path: string) =>
  scalar(api.database.db, sql`select count(*) from reader_cache where url = ${api.web.url(path)}`)
const damaged = 'The PDF could not be read (it is damaged or encrypted)'

describe('hostile PDFs through the reader', () => {
  it('refuses a compression bomb with 422 naming the limit, charges and caches nothing, and reads the next PDF', async () => {
    const key = await keyWithBalance(api.database.db, 100_000)
    // 1 MB inflating to 1 GiB (answered 200 after holding the memory, before), by URL.
    const path = '/hostile/pdf-bomb?mib=1024'
    expect(await read(path, key)).toMatchObject({
      status: 422,
      body: { detail: "The PDF's streams inflate to more than 100 MiB, the reader's limit" },
    })
    expect(await cachedRows(path)).toBe(0)
    // In the body, 311 KB inflating to 300 MiB; and 5 KB in two layers (FlateDecode of RunLengthDecode)
    // inflating to 300 MiB in pdf.js's own decoders rather than the runtime's zlib.
    for (const pdf of [pdfBomb(300), layeredPdfBomb(300)]) {
      const given = await call('POST', '/r', {
        bearer: key.apiKey,
        headers: json,
        json: { pdf: pdf.toString('base64') },
      })
      expect(given).toMatchObject({ status: 422, body: { detail: expect.stringMatching(/inflate to more than/) } })
    }
    expect(await api.balanceOf(key.id)).toBe(100_000)
    const next = await read('/sample.pdf', key)
    expect(next).toMatchObject({ status: 200, body: { data: { title: 'Rerankers in practice (PDF)', numPages: 2 } } })
  })

  it('refuses a damaged PDF with 422, never 500: a page tree that contains itself, a truncated file, garbage', async () => {
    const key = await keyWithBalance(api.database.db, 100_000)
    for (const path of ['/hostile/pdf-circular', '/hostile/pdf-truncated', '/hostile/pdf-garbage'])
      expect({ path, ...(await read(path, key)) }).toMatchObject({ path, status: 422, body: { detail: damaged } })
    for (const pdf of [circularPdf(), truncatedPdf(), garbagePdf()]) {
      const given = await call('POST', '/r', {
        bearer: key.apiKey,
        headers: json,
        json: { pdf: pdf.toString('base64') },
      })
      expect(given).toMatchObject({ status: 422, body: { detail: damaged } })
    }
    expect(await api.balanceOf(key.id)).toBe(100_000)
  })

  it('refuses a PDF of more pages than the limit with 422 naming it', async () => {
    const key = await keyWithBalance(api.database.db, 100_000)
    expect(await read('/hostile/pdf-pages?count=20000', key)).toMatchObject({
      status: 422,
      body: { detail: "The PDF has 20000 pages, more than the reader's limit of 500" },
    })
    expect(await api.balanceOf(key.id)).toBe(100_000)
  })
})
