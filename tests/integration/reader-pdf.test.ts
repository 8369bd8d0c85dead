import { describe, expect, it } from 'vitest'
import { countTokens } from '../support/tokens'
import { call, respond } from '../support/api'
import { apiWithWeb } from '../support/api-with-web'
import { samplePdf } from '../support/pdf'

/** PDFs by URL, as base64 in the body and as an uploaded file; HTML in the body; form-encoded bodies. */
const api = apiWithWeb({ READER_ALLOW_PRIVATE_NETWORKS: 'true', READER_CACHE_TTL_SECONDS: '0' })
const json = { accept: 'application/json' }

function expectSamplePdf(data: { title: string; content: string; numPages?: number; usage: { tokens: number } }) {
  expect(data.title).toBe('Rerankers in practice (PDF)')
  expect(data.numPages).toBe(2)
  expect(data).not.toHaveProperty('pages')
  expect(data.content).toMatch(/^# Rerankers in practice$/m)
  expect(data.content).toMatch(/^## Why it helps$/m)
  expect(data.content).toMatch(/^## Numbers$/m)
  expect(data.content).toContain('PDF-BODY-MARKER: a reranker scores each candidate against the query.')
  expect(data.content).toContain('PDF-PAGE-TWO-MARKER: nDCG rose from 52.1 to 61.9.')
  expect(data.usage.tokens).toBe(countTokens(data.content))
}

describe('PDFs', () => {
  it('reads a PDF by URL: its text as Markdown with headings, its title and page count', async () => {
    const { status, body } = await call('GET', `/r/${api.web.url('/sample.pdf')}`, { headers: json })
    expect(status).toBe(200)
    expectSamplePdf(body.data)
    expect(body.data.url).toBe(api.web.url('/sample.pdf'))
  })

  it('reads a PDF by URL through the browser engine too', async () => {
    const { body } = await call('GET', `/r/${api.web.url('/sample.pdf')}`, {
      headers: { ...json, 'x-engine': 'browser' },
    })
    expectSamplePdf(body.data)
  })

  it('reads a PDF sent as base64 in a JSON body, and one uploaded as a file, without fetching anything', async () => {
    const pdf = samplePdf()
    const fromJson = await call('POST', '/r', { headers: json, json: { pdf: pdf.toString('base64') } })
    expect(fromJson.status).toBe(200)
    expectSamplePdf(fromJson.body.data)

    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'sample.pdf')
    const uploaded = await respond('POST', '/r', { headers: json, body: form })
    expect(uploaded.status).toBe(200)
    expectSamplePdf((await uploaded.json()).data)
    expect(api.web.hits).toEqual([])
  })

  it('converts HTML given in the body, its links made absolute against the url given with it', async () => {
    const { status, body } = await call('POST', '/r', {
      headers: json,
      json: { html: '<h1>Given page</h1><p>GIVEN-MARKER <a href="/docs">docs</a></p>', url: 'https://docs.example/a/' },
    })
    expect(status).toBe(200)
    expect(body.data.content).toContain('# Given page')
    expect(body.data.content).toContain('GIVEN-MARKER [docs](https://docs.example/docs)')
    expect(api.web.hits).toEqual([])
  })

  it('takes the same fields form-encoded', async () => {
    const response = await respond('POST', '/r', {
      headers: { ...json, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ url: api.web.url('/article') }).toString(),
    })
    expect(response.status).toBe(200)
    expect((await response.json()).data.title).toBe('Rerankers in practice')
  })

  it('refuses a body that names nothing to read, or two pages at once', async () => {
    expect((await call('POST', '/r', { headers: json, json: {} })).status).toBe(422)
    const both = await call('POST', '/r', { headers: json, json: { html: '<p>a</p>', pdf: 'JVBERi0=' } })
    expect(both.status).toBe(422)
  })
})
