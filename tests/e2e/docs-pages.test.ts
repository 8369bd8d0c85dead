import { describe, expect, inject, it } from 'vitest'
import { documentedOrigins } from '#content/docs'
import { docsEntries } from '#content/docs-index'

const baseUrl = inject('baseUrl')
const get = (path: string) => fetch(baseUrl + path, { redirect: 'manual' })

/** The documentation as the build serves it, over HTTP: every page prerendered, linked and listed. */
describe('the /docs pages', () => {
  it('serves every page prerendered, in English and under a locale prefix', async () => {
    for (const path of ['/docs', ...docsEntries.map((entry) => `/docs/${entry.slug}`)]) {
      for (const localized of [path, `/de${path}`]) {
        const response = await get(localized)
        expect(response.status, localized).toBe(200)
        // Prerendered pages carry their build's etag; a page rendered live has none.
        expect(response.headers.get('etag'), localized).toBeTruthy()
        await response.arrayBuffer()
      }
    }
  })

  it("shows the chrome in the visitor's language and says the body is English", async () => {
    const german = await (await get('/de/docs/embeddings')).text()
    expect(german).toContain('Auf dieser Seite')
    expect(german).toContain('Die Dokumentation ist auf Englisch verfasst')
    expect(german).toMatch(/<div lang="en" class="markdown-prose">/)
    const english = await (await get('/docs/embeddings')).text()
    expect(english).toContain('On this page')
    expect(english).not.toContain('written in English')
  })

  it("shows this server's own addresses in the samples, never the documented ones", async () => {
    const html = await (await get('/docs/quickstart')).text()
    expect(html).not.toContain(documentedOrigins.api)
    expect(html).not.toContain(documentedOrigins.site)
    expect(html).toMatch(
      /curl &quot;http:\/\/localhost:3000\/v1\/embeddings&quot;|curl "http:\/\/localhost:3000\/v1\/embeddings"/,
    )
  })

  it('sends a page that does not exist to the index', async () => {
    const response = await get('/de/docs/no-such-page')
    expect([301, 302, 307, 308]).toContain(response.status)
    expect(response.headers.get('location')).toMatch(/\/de\/docs$/)
  })

  it('is listed in the sitemap and linked from every page header and from the API reference', async () => {
    const sitemap = await (await get('/sitemap.xml')).text()
    for (const entry of docsEntries) expect(sitemap).toContain(`/ja/docs/${entry.slug}</loc>`)
    const landing = await (await get('/fr')).text()
    expect(landing).toContain('href="/fr/docs"')
    const reference = await (await get('/api-reference')).text()
    for (const slug of [
      'embeddings',
      'rerank',
      'classify',
      'segment',
      'reader',
      'deepsearch',
      'bulk-embeddings',
      'models',
    ])
      expect(reference, slug).toContain(`href="/docs/${slug}"`)
  })
})
