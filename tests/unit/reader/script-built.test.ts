import { describe, expect, it } from 'vitest'
import { convertPage } from '~/server/providers/reader/convert/convert'
import { articlePage } from '../../support/web-pages'

const signOf = (html: string) =>
  convertPage({
    source: html,
    kind: 'html',
    url: 'http://127.0.0.1/page',
    options: { format: 'content', withLinks: false, withImages: false },
  }).scriptBuilt ?? false

const page = (body: string, head = '<script src="/app.js"></script>') =>
  `<!doctype html><html><head><title>T</title>${head}</head><body>${body}</body></html>`
const prose = '<p>' + 'A sentence of the page itself, written by its server. '.repeat(8) + '</p>'

/** Which pages the default engine renders: the converter's sign that a page writes its text with a script. */
describe('a page written by its script', () => {
  it('is one with scripts and next to no text, an empty or "Loading…" app root, or a noscript asking for JavaScript', () => {
    expect(signOf(page('<div id="root"></div>'))).toBe(true)
    expect(signOf(page(`${prose}<div id="root"></div>`))).toBe(true)
    expect(signOf(page(`${prose}<main id="app"><p>Loading the article…</p></main>`))).toBe(true)
    expect(signOf(page(`${prose}<div id="__next"> </div>`))).toBe(true)
    expect(signOf(page(`<noscript>You need to enable JavaScript to run this app.</noscript>${prose}`))).toBe(true)
    expect(signOf(page('<p>Loading…</p>', '<script type="module">import "/app.js"</script>'))).toBe(true)
  })

  it('is not one with text of its own, nor one without a script (a browser would show the same)', () => {
    expect(signOf(articlePage())).toBe(false)
    // The first quarter of the article, as a streamed snapshot sees it.
    const article = articlePage({ paragraphs: 40 })
    expect(signOf(article.slice(0, Math.ceil(article.length / 4)))).toBe(false)
    expect(signOf(page(`${prose}<div id="app"><h1>Rendered on the server</h1>${prose}</div>`))).toBe(false)
    expect(signOf(page('<p>Short.</p>', ''))).toBe(false)
    expect(signOf(page('<p>Short.</p>', '<script type="application/ld+json">{}</script>'))).toBe(false)
    expect(signOf(page(`<noscript><img src="/pixel.gif"></noscript>${prose}`))).toBe(false)
  })
})
