import { describe, expect, it } from 'vitest'
import { docPages, docsProblems, documentedOrigins } from '#content/docs'
import { docsEntries, docsEntryForPath, docsIndex } from '#content/docs-index'
import { posts } from '#content/news'
import { rateLimitTiers, tokenRateLimits } from '../../app.config'
import { renderDoc } from '~/features/docs/render-doc.server'
import { staticPublicPaths } from '~/lib/public-paths'
import { docBlocks, docSamples, jsonMismatches, textMismatches } from '../support/doc-samples'

const origins = { api: 'http://localhost:3000', site: 'http://localhost:3000' }
const rendered = new Map(docPages.map((page) => [page.slug, renderDoc(page.body, origins)]))

describe('the documentation', () => {
  it('has a file for every index entry and an entry for every file', () => {
    expect(docsProblems()).toEqual([])
    expect(docsEntries.map((entry) => entry.slug).sort()).toEqual(docPages.map((page) => page.slug).sort())
  })

  it('runs every sample that calls the API: each is marked `sh test` and followed by its answer', () => {
    const calls = docBlocks().filter(
      (block) =>
        !block.answer &&
        (block.code.includes('$API_KEY') ||
          block.code.includes(documentedOrigins.api) ||
          block.code.includes(documentedOrigins.site)),
    )
    expect(calls.length).toBeGreaterThan(20)
    expect(calls.filter((block) => !block.runnable).map((block) => `${block.page} #${block.position}`)).toEqual([])
    expect(
      docSamples()
        .filter((sample) => !sample.answer)
        .map((sample) => sample.name),
    ).toEqual([])
    // Answers are JSON or text, and JSON answers parse.
    for (const block of docBlocks().filter((b) => b.answer)) {
      expect(['json', 'text'], `${block.page} #${block.position}`).toContain(block.language)
      if (block.language === 'json')
        expect(() => JSON.parse(block.code), `${block.page} #${block.position}`).not.toThrow()
    }
  })

  it('spells the key one way everywhere, the news posts too: $API_KEY', () => {
    const texts = [...docPages, ...posts].map((page) => ({ slug: page.slug, body: page.body }))
    for (const page of texts) {
      expect(page.body, page.slug).not.toMatch(/YOUR_API_KEY|\{\{API_KEY\}\}|<API_KEY>|<key>/i)
      for (const line of page.body.split('\n').filter((l) => l.startsWith('export API_KEY=')))
        expect(line, page.slug).toBe('export API_KEY=lds_your_key_here')
      // A bearer is the key's variable, the Administration API's admin key, or the metering services' token.
      for (const [, bearer] of page.body.matchAll(/Bearer ([^\s"'`]+)/g))
        expect(['$API_KEY', '$ADMIN_KEY', '$USAGE_SERVICE_TOKEN'], `${page.slug}: Bearer ${bearer}`).toContain(bearer)
    }
  })

  it('links only to pages and headings that exist', () => {
    const broken: string[] = []
    const sitePaths = new Set<string>([...staticPublicPaths, '/api-dashboard'])
    for (const page of docPages) {
      for (const [, target] of page.body.matchAll(/\]\(([^)\s]+)\)/g)) {
        const [path = '', anchor] = target!.split('#')
        if (/^https?:/.test(path)) continue
        if (path.startsWith('../')) {
          if (!sitePaths.has(`/${path.slice(3)}`)) broken.push(`${page.slug}: ${target}`)
          continue
        }
        const slug = path || page.slug
        const headings = rendered.get(slug)?.headings.map((heading) => heading.id)
        if (!headings || (anchor && !headings.includes(anchor))) broken.push(`${page.slug}: ${target}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('states the rate limits the server applies', () => {
    const body = docPages.find((page) => page.slug === 'rate-limits')!.body
    const n = (value: number | null) => (value === null ? '–' : value.toLocaleString('en-US'))
    const rows: Array<[string, keyof typeof rateLimitTiers]> = [
      ['reader', 'reader'],
      ['embeddings', 'embeddings'],
      ['rerank', 'rerank'],
      ['classify and train', 'classify'],
      ['segment', 'segment'],
      ['deep search', 'deepsearch'],
      ['search (`/s`)', 'search'],
      ['dashboard API (`/api/v1`)', 'dashboard'],
    ]
    for (const [label, api] of rows) {
      const { anonymous, free, paid, premium } = rateLimitTiers[api]
      expect(body).toContain(`| ${label} | ${n(anonymous)} | ${n(free)} | ${n(paid)} | ${n(premium)} |`)
    }
    for (const [label, api] of [
      ['embeddings', 'embeddings'],
      ['rerank', 'rerank'],
      ['classify and train', 'classify'],
    ] as const) {
      const { free, paid, premium } = tokenRateLimits[api]
      expect(body).toContain(`| ${label} | ${n(free)} | ${n(paid)} | ${n(premium)} |`)
    }
  })

  it('sends each API path to the page that documents it, the longest prefix winning', () => {
    expect(docsEntryForPath('/v1/embeddings')?.slug).toBe('embeddings')
    expect(docsEntryForPath('/v1/classifiers/{id}')?.slug).toBe('classify')
    expect(docsEntryForPath('/r/{url}')?.slug).toBe('reader')
    expect(docsEntryForPath('/s/{query}')?.slug).toBe('search')
    expect(docsEntryForPath('/reader')).toBeUndefined()
    expect(docsEntryForPath('/api/v1/billing/usage_summary')?.slug).toBe('request-log')
    expect(docsEntryForPath('/api/v1/billing/transfer_balance')?.slug).toBe('billing')
    expect(docsEntryForPath('/api/v1/account/keys/{keyId}/controls')?.slug).toBe('key-controls')
    expect(docsEntryForPath('/api/v1/account/keys/{keyId}/limits/{limitId}')?.slug).toBe('key-controls')
    expect(docsEntryForPath('/api/v1/account/keys')?.slug).toBe('authentication')
    expect(docsIndex.every((section) => section.pages.length > 0)).toBe(true)
  })
})

describe('a documentation page as the server renders it', () => {
  it("shows this server's origins in the samples and the answers", () => {
    const quickstart = rendered.get('quickstart')!
    const code = quickstart.blocks.flatMap((block) => (block.kind === 'code' ? [block.code] : [])).join('\n')
    expect(code).toContain('curl "http://localhost:3000/v1/embeddings"')
    expect(code).not.toContain(documentedOrigins.site)
  })

  it('keeps code blocks whole with their kind, gives headings ids and makes tables focusable', () => {
    const doc = renderDoc(
      '## Send `it`\n\nText.\n\n```sh test\ncurl x\n```\n\n```json answer\n{}\n```\n\n| a |\n|---|\n| 1 |\n\n## Send it',
      origins,
    )
    expect(doc.headings).toEqual([
      { id: 'send-it', text: 'Send it', level: 2 },
      { id: 'send-it-2', text: 'Send it', level: 2 },
    ])
    expect(doc.blocks.map((block) => block.kind)).toEqual(['html', 'code', 'code', 'html'])
    expect(doc.blocks[1]).toEqual({ kind: 'code', code: 'curl x', language: 'sh', runnable: true, answer: false })
    expect(doc.blocks[2]).toMatchObject({ language: 'json', answer: true })
    expect(doc.blocks[0]).toMatchObject({ html: expect.stringContaining('<h2 id="send-it">Send <code>it</code></h2>') })
    expect(doc.blocks[3]).toMatchObject({ html: expect.stringContaining('<table tabindex="0">') })
  })
})

describe('comparing an answer with the documented one', () => {
  it('asks for every documented field with its type, a detail word for word', () => {
    expect(jsonMismatches({ a: 1, b: [{ c: 'x' }], d: null }, { a: 2, b: [{ c: 'y' }], d: 5, e: true })).toEqual([])
    expect(jsonMismatches({ a: 1 }, { a: '1' })).toEqual(['$.a: documented a number, answered "1"'])
    expect(jsonMismatches({ b: [{ c: 'x' }] }, { b: [{}] })).toEqual(['$.b[0].c: missing from the answer'])
    expect(jsonMismatches({ detail: 'Insufficient balance' }, { detail: 'Rate limit exceeded' })).toHaveLength(1)
    expect(jsonMismatches({ detail: 'does not do rerank: …' }, { detail: 'does not do rerank: a, b' })).toEqual([])
  })

  it('asks for each documented line in order, … standing for anything', () => {
    const answer = 'HTTP/1.1 200 \r\nx-a: 1\r\nx-b: 2\r\n'
    expect(textMismatches('HTTP/1.1 200…\n…\nx-b: …', answer)).toEqual([])
    expect(textMismatches('x-b: …\nx-a: 1', answer)).toHaveLength(1)
  })
})
