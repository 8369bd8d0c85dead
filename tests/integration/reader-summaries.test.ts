import { describe, expect, it } from 'vitest'
import { call } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'

/**
 * X-With-Links-Summary and X-With-Images-Summary, `true` and `all`, as the original answers them: `true` lists
 * each link once and the images of what was answered; `all` lists every link of the page in order (duplicates
 * kept, as `[text, url]` pairs) and every image of the page, the navigation's and footer's too.
 */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_CACHE_TTL_SECONDS: '3600' })

const read = (headers: Record<string, string>, accept = 'application/json') =>
  call('GET', `/r/${api.web.url('/summaries-page')}`, { headers: { accept, ...headers } })

describe('links and images summaries', () => {
  it('with true: each link once, and the images of the article it answered', async () => {
    const { status, body } = await read({ 'x-with-links-summary': 'true', 'x-with-images-summary': 'true' })
    expect(status).toBe(200)
    expect(body.data.content).toContain('Summaries in practice')
    expect(body.data.content).not.toContain('logo.png')
    expect(body.data.links).toEqual({
      Home: api.web.url('/'),
      Docs: api.web.url('/docs/1'),
      'the docs': api.web.url('/docs/1'),
      'the docs again': api.web.url('/docs/1'),
      // mailto: kept, as the original keeps it.
      write: 'mailto:team@example.org',
      About: api.web.url('/about'),
    })
    expect(body.data.images).toEqual({ 'Image 1: A chart': api.web.url('/images/chart.png') })
  })

  it('with all: every link in page order, duplicates and mailto included, and every image of the page', async () => {
    const { status, body } = await read({ 'x-with-links-summary': 'all', 'x-with-images-summary': 'all' })
    expect(status).toBe(200)
    expect(body.data.links).toEqual([
      ['Home', api.web.url('/')],
      ['Docs', api.web.url('/docs/1')],
      ['the docs', api.web.url('/docs/1')],
      ['the docs again', api.web.url('/docs/1')],
      ['write', 'mailto:team@example.org'],
      ['About', api.web.url('/about')],
    ])
    expect(body.data.images).toEqual({
      'Image 1: Logo': api.web.url('/images/logo.png'),
      'Image 2: A chart': api.web.url('/images/chart.png'),
      'Image 3: A chart': api.web.url('/images/chart.png'),
    })
  })

  it('lists them after the text in the plain answer, and counts them as output tokens', async () => {
    const headers = { 'x-with-links-summary': 'all', 'x-with-images-summary': 'all', 'x-no-cache': 'true' }
    const { body: text } = await read(headers, 'text/plain')
    expect(text).toContain(
      `Links/Buttons:\n- [Home](${api.web.url('/')})\n- [Docs](${api.web.url('/docs/1')})\n- [the docs](${api.web.url('/docs/1')})`,
    )
    expect(text).toContain(`- ![Image 3: A chart](${api.web.url('/images/chart.png')})`)
    const plain = await read({ 'x-no-cache': 'true' })
    const summarised = await read(headers)
    expect(summarised.body.data.usage.tokens).toBeGreaterThan(plain.body.data.usage.tokens)
  })

  it('refuses any other value with 422', async () => {
    const { status, body } = await read({ 'x-with-links-summary': 'every' })
    expect(status).toBe(422)
    expect(JSON.stringify(body.detail)).toMatch(/true, false or all/)
  })
})
