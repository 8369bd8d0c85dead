import { rmSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { SHOT_TOKENS } from '~/server/api/reader/read'
import { SHOT_LINK_SECONDS, sweepExpiredShots } from '~/server/api/reader/shots'
import { objectStorage } from '~/server/providers/storage'
import { s3Storage } from '~/server/providers/storage/s3'
import { call, respond } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'
import { startFakeS3 } from '../support/fake-s3'
import { decodePng } from '../support/png'

/**
 * Screenshots (the first screen) and pageshots (the whole page) as PNG, stored and linked with a signature;
 * here at most 1 MB each, in a data folder of this file's own (its sweep removes what it finds).
 */
const dataDir = `tests/.tmp/reader-shots-${process.pid}`
const api = apiWithWeb({
  READER_ALLOW_PRIVATE_NETWORKS: 'true',
  READER_CACHE_TTL_SECONDS: '0',
  READER_SHOT_MAX_MB: '1',
  DATA_DIR: dataDir,
  // Every read comes from one address: browser time is not what these tests measure.
  READER_BROWSER_SECONDS_PER_MINUTE: '3600',
})
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

/** Fetches a shot link through its route, as a client following it would. */
async function download(link: string) {
  const url = new URL(link)
  const response = await respond('GET', `${url.pathname}${url.search}`)
  return { response, bytes: Buffer.from(await response.arrayBuffer()) }
}

describe('screenshots', () => {
  it('answers a screenshot of the first screen and a pageshot of the whole page, as signed PNG links', async () => {
    const { status, body } = await call('GET', `/r/${api.web.url('/browser/tall?height=2500')}`, {
      headers: { accept: 'application/json', 'x-return-format': 'markdown,screenshot,pageshot' },
    })
    expect(status).toBe(200)
    expect(body.data.content).toContain('TALL-MARKER')
    expect(body.data.usage.tokens).toBeGreaterThan(2 * SHOT_TOKENS)

    const screen = await download(body.data.screenshotUrl)
    expect(screen.response.status).toBe(200)
    expect(screen.response.headers.get('content-type')).toBe('image/png')
    expect(pngSize(screen.bytes)).toEqual({ width: 1024, height: 1024 })

    const whole = await download(body.data.pageshotUrl)
    expect(pngSize(whole.bytes)).toEqual({ width: 1024, height: 2500 })
    // A drawn gradient, not a blank canvas.
    expect(whole.bytes.length).toBeGreaterThan(5000)
    // Taken in two strips (2,048 rows, then 452) and joined: the gradient runs on across the seam, row by row.
    const { pixels, bpp } = decodePng(whole.bytes)
    const redAt = (y: number) => pixels[y * 1024 * bpp + 512 * bpp]
    for (let y = 2040; y < 2056; y++) expect(Math.abs(redAt(y + 1) - redAt(y))).toBeLessThanOrEqual(1)
    expect(redAt(100)).toBeGreaterThan(redAt(2400))
  })

  it('takes the viewport from the body, and redirects (302) to the image in text when only a screenshot is asked', async () => {
    const response = await respond('POST', '/r', {
      headers: { 'x-return-format': 'screenshot' },
      json: { url: api.web.url('/browser/tall'), viewport: { width: 400, height: 300 } },
    })
    // As the original answers: a client that follows redirects gets the PNG.
    expect(response.status).toBe(302)
    const location = response.headers.get('location')!
    expect(location).toMatch(/^(http:\/\/[^/]+)?\/v1\/reader\/shots\/[\w-]+\?expires=\d+&signature=[\w-]+$/)
    expect(Number(response.headers.get('x-usage-tokens'))).toBe(SHOT_TOKENS)
    expect(pngSize((await download(new URL(location, 'http://localhost:3000').href)).bytes)).toEqual({
      width: 400,
      height: 300,
    })
  })

  it('refuses an altered link with 403', async () => {
    const { body } = await call('GET', `/r/${api.web.url('/browser/tall')}`, {
      headers: { accept: 'application/json', 'x-return-format': 'screenshot' },
    })
    const altered = body.data.screenshotUrl.replace(
      /expires=(\d+)/,
      (_: string, n: string) => `expires=${Number(n) + 1}`,
    )
    expect((await download(altered)).response.status).toBe(403)
  })
})

describe('screenshots within bounds', () => {
  it('cuts a pageshot at 16.8 million pixels before it is taken: 8,192 rows at a 2,048-pixel viewport', async () => {
    const response = await respond('POST', '/r', {
      headers: { accept: 'application/json', 'x-return-format': 'pageshot' },
      json: { url: api.web.url('/browser/tall?height=20000'), viewport: { width: 2048, height: 800 } },
    })
    expect(response.status).toBe(200)
    const { data } = (await response.json()) as { data: { pageshotUrl: string } }
    expect(pngSize((await download(data.pageshotUrl)).bytes)).toEqual({ width: 2048, height: 8192 })
  })

  it('refuses with 422 a screenshot larger than READER_SHOT_MAX_MB, and stores nothing', async () => {
    const before = (await objectStorage().list('reader-shots/')).length
    const { status, body } = await call('GET', `/r/${api.web.url('/hostile/noise?height=1024')}`, {
      headers: { accept: 'application/json', 'x-return-format': 'screenshot' },
    })
    expect({ status, body }).toMatchObject({
      status: 422,
      body: { detail: "The screenshot would be larger than 1 MB, the reader's limit: ask for a smaller viewport" },
    })
    expect((await objectStorage().list('reader-shots/')).length).toBe(before)
  })

  it('removes a stored screenshot once its link has expired, and keeps the fresh ones', async () => {
    const { body } = await call('GET', `/r/${api.web.url('/browser/tall')}`, {
      headers: { accept: 'application/json', 'x-return-format': 'screenshot' },
    })
    expect((await download(body.data.screenshotUrl)).response.status).toBe(200)
    expect(await sweepExpiredShots()).toBe(0)
    expect((await download(body.data.screenshotUrl)).response.status).toBe(200)
    const stored = (await objectStorage().list('reader-shots/')).length
    expect(stored).toBeGreaterThan(0)
    expect(await sweepExpiredShots(Date.now() + (SHOT_LINK_SECONDS + 1) * 1000)).toBe(stored)
    expect(await objectStorage().list('reader-shots/')).toEqual([])
  })

  it('sweeps an S3 bucket the same way, through the storage interface', async () => {
    const s3 = await startFakeS3('shots-bucket')
    try {
      const storage = s3Storage({
        bucket: 'shots-bucket',
        region: 'eu-central-1',
        endpoint: s3.endpoint,
        accessKeyId: 'test-access-key',
        secretAccessKey: 'test-secret-key',
        forcePathStyle: true,
        prefix: 'prod/',
      })
      await storage.write('reader-shots/old.png', [Buffer.from('old')], 'image/png')
      await storage.write('bulk/job/result.jsonl', [Buffer.from('{}')], 'application/jsonl')
      s3.objects.get('prod/reader-shots/old.png')!.modifiedAt = new Date(Date.now() - (SHOT_LINK_SECONDS + 60) * 1000)
      await storage.write('reader-shots/new.png', [Buffer.from('new')], 'image/png')
      expect(await sweepExpiredShots(Date.now(), storage)).toBe(1)
      expect([...s3.objects.keys()].sort()).toEqual(['prod/bulk/job/result.jsonl', 'prod/reader-shots/new.png'])
    } finally {
      await s3.close()
    }
  })
})
