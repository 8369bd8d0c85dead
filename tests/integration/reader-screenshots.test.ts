import { describe, expect, it } from 'vitest'
import { Route as readPathRoute } from '~/routes/r/$'
import { Route as readBodyRoute } from '~/routes/r/index'
import { Route as shotRoute } from '~/routes/v1/reader/shots/$id'
import { SHOT_TOKENS } from '~/server/api/reader/read'
import { call, respond } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'

/** Screenshots (the first screen) and pageshots (the whole page) as PNG, stored and linked with a signature. */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_CACHE_TTL_SECONDS: '0' })

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

/** Fetches a shot link through its route, as a client following it would. */
async function download(link: string) {
  const url = new URL(link)
  const id = url.pathname.split('/').pop()!
  const response = await respond(shotRoute, 'GET', `${url.pathname}${url.search}`, { params: { id } })
  return { response, bytes: Buffer.from(await response.arrayBuffer()) }
}

describe('screenshots', () => {
  it('answers a screenshot of the first screen and a pageshot of the whole page, as signed PNG links', async () => {
    const { status, body } = await call(readPathRoute, 'GET', `/r/${api.web.url('/browser/tall?height=2500')}`, {
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
  })

  it('takes the viewport from the body, and answers only the link in text when only a screenshot is asked', async () => {
    const response = await respond(readBodyRoute, 'POST', '/r', {
      headers: { 'x-return-format': 'screenshot' },
      json: { url: api.web.url('/browser/tall'), viewport: { width: 400, height: 300 } },
    })
    expect(response.status).toBe(200)
    const text = await response.text()
    expect(text).toMatch(/^http:\/\/.+\/v1\/reader\/shots\/[\w-]+\?expires=\d+&signature=[\w-]+$/)
    expect(pngSize((await download(text)).bytes)).toEqual({ width: 400, height: 300 })
  })

  it('refuses an altered link with 403', async () => {
    const { body } = await call(readPathRoute, 'GET', `/r/${api.web.url('/browser/tall')}`, {
      headers: { accept: 'application/json', 'x-return-format': 'screenshot' },
    })
    const altered = body.data.screenshotUrl.replace(
      /expires=(\d+)/,
      (_: string, n: string) => `expires=${Number(n) + 1}`,
    )
    expect((await download(altered)).response.status).toBe(403)
  })
})
