import { statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConvertOptions, PageRequest } from '~/server/providers/reader/convert/convert'
import { convertPage } from '~/server/providers/reader/convert/convert'
import { withOutputTokens } from '~/server/providers/reader/convert/output-tokens'
import { ConversionPool, type PoolSettings } from '~/server/providers/reader/convert-pool/pool'
import threadSource from '~/server/providers/reader/convert-pool/thread.ts?thread'
import { flatHeadings, manyLinks, nestedDivs, wideTable } from '../support/hostile-pages'
import { articlePage, hundredKilobyteArticle, listPage } from '../support/web-pages'

const pools: ConversionPool[] = []
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()))
})

function poolOf(settings: Partial<PoolSettings> = {}): ConversionPool {
  const pool = new ConversionPool({ source: threadSource, threads: 1, timeoutMs: 60_000, memoryMb: 512, ...settings })
  pools.push(pool)
  return pool
}

const content: ConvertOptions = { format: 'content', withLinks: false, withImages: false }
const html = (source: string, options: ConvertOptions = content): PageRequest => ({
  source,
  kind: 'html',
  url: 'http://127.0.0.1:8080/page',
  options,
})

/** What the pool's refusal says, or the page's title when it converted. */
const outcome = (converting: Promise<{ title: string }>) =>
  converting.then(
    (page) => ({ title: page.title }),
    (error: { problem?: string; detail?: string; message: string }) => ({
      problem: error.problem,
      detail: error.detail ?? error.message,
    }),
  )

describe('the reader’s conversion pool', () => {
  it('gives the converters one tokenizer table, the metering one: each compiles its whole code as it starts', () => {
    // cl100k_base's ranks are about 1.1 MB of the 1.6 MB; the segmenter's other three tables would add 3.5 MB,
    // a third more start-up time and 100 MB more memory in every converter. pdf.js is carried as a string,
    // evaluated with a converter's first PDF: not code it compiles as it starts.
    const pdfjs = statSync(fileURLToPath(import.meta.resolve('unpdf/pdfjs'))).size
    expect(threadSource.length - pdfjs).toBeLessThan(2_500_000)
  })

  it('ends a converter whose page runs over the time limit (504), starts another, and converts the next page', async () => {
    // A limit well above what a small page takes even on a loaded machine (converters run at a lower priority),
    // and a page that takes four times as long on a quiet one.
    const pool = poolOf({ timeoutMs: 1000 })
    await pool.convert(html(articlePage()))
    const started = performance.now()
    expect(await outcome(pool.convert(html(manyLinks(60_000))))).toEqual({
      problem: 'convert-timeout',
      detail: "The page could not be converted within 1 s, the reader's limit",
    })
    // Ended at the limit, not when the page would have been done (many seconds later).
    expect(performance.now() - started).toBeLessThan(1000 + 1500)
    expect(await outcome(pool.convert(html(articlePage())))).toEqual({ title: 'Rerankers in practice' })
    expect(pool.state).toMatchObject({ threads: 1, busy: 0, waiting: 0 })
  })

  it('ends a converter whose page needs more memory than its limit (422), and converts the next page, the server unharmed', async () => {
    const pool = poolOf({ memoryMb: 64 })
    // Three times: on worker threads, about one such page in three aborted the whole process (this one).
    for (let attempt = 0; attempt < 3; attempt++)
      expect(await outcome(pool.convert(html(wideTable(3000, 50))))).toEqual({
        problem: 'too-complex',
        detail: "The page needs more than 64 MB to convert, the reader's limit",
      })
    expect(await outcome(pool.convert(html(articlePage())))).toEqual({ title: 'Rerankers in practice' })
    expect(pool.state.threads).toBe(1)
  })

  it('refuses nesting deeper than the limit at once, where 5,000 levels overflowed the stack (500)', async () => {
    const pool = poolOf()
    for (const depth of [5000, 900_000])
      expect(await outcome(pool.convert(html(nestedDivs(depth))))).toEqual({
        problem: 'too-complex',
        detail: "The page nests elements deeper than 256 levels, the reader's limit",
      })
    expect(await outcome(pool.convert(html(nestedDivs(200))))).toEqual({ title: 'Nested' })
  })

  it('converts a flat page of 130,000 headings, which was refused as nesting too deeply, and still counts its elements', async () => {
    // Readability resets the body with innerHTML, whose parsed nodes linkedom spread into one call's
    // arguments: past about 120,000 of them the stack overflowed, and that was read as deep nesting.
    const pool = poolOf()
    const page = await pool.convert(html(flatHeadings(130_000)))
    expect(page.content).toMatch(/^## Chapter 0$/m)
    expect(page.content).toMatch(/^## Part 129999$/m)
    expect(await outcome(pool.convert(html(flatHeadings(200_001))))).toEqual({
      problem: 'too-complex',
      detail: "The page has more than 200,000 elements, attributes and comments, the reader's limit",
    })
  })

  it('queues pages beyond its converters and answers every one, in its own order', async () => {
    const pool = poolOf({ threads: 2 })
    const titles = Array.from({ length: 7 }, (_, i) => `Page ${i}`)
    const converting = titles.map((title) => pool.convert(html(articlePage({ title, paragraphs: 200 }))))
    expect(pool.state).toMatchObject({ threads: 2, waiting: 7 })
    const pages = await Promise.all(converting)
    expect(pages.map((page) => page.title)).toEqual(titles)
    expect(pool.state).toMatchObject({ threads: 2, busy: 0, waiting: 0 })
  })

  it('takes a page whose caller went away out of the queue, and ends the converter of one converting', async () => {
    const pool = poolOf()
    const first = new AbortController()
    const second = new AbortController()
    const converting = outcome(pool.convert(html(manyLinks()), { signal: first.signal }))
    const queued = outcome(pool.convert(html(articlePage()), { signal: second.signal }))
    second.abort(new Error('caller went away'))
    expect(await queued).toEqual({ problem: undefined, detail: 'caller went away' })
    first.abort(new Error('caller went away too'))
    expect(await converting).toEqual({ problem: undefined, detail: 'caller went away too' })
    expect(await outcome(pool.convert(html(articlePage())))).toEqual({ title: 'Rerankers in practice' })
  })

  it('answers every fixture page exactly as converting it in this process does', async () => {
    const pool = poolOf({ threads: 2 })
    const pages = {
      article: articlePage(),
      list: listPage(),
      long: hundredKilobyteArticle(),
      table: wideTable(40, 12),
    }
    const optionSets: ConvertOptions[] = [
      content,
      { format: 'markdown', withLinks: true, withImages: true },
      { format: 'html', withLinks: false, withImages: true },
      { format: 'text', withLinks: true, withImages: false },
      { format: 'content', withLinks: false, withImages: false, targetSelector: 'table, footer' },
      { format: 'markdown', withLinks: false, withImages: false, removeSelector: 'nav, .ad' },
    ]
    const requests: PageRequest[] = [
      ...Object.values(pages).flatMap((source) => optionSets.map((options) => html(source, options))),
      { source: 'PLAIN-MARKER\nJust text.', kind: 'text', url: 'http://127.0.0.1/plain', options: content },
      {
        source: '{"marker":"JSON-MARKER","items":[1,2]}',
        kind: 'json',
        url: 'http://127.0.0.1/json',
        options: content,
      },
    ]
    for (const request of requests) {
      let inProcess: unknown
      try {
        inProcess = await withOutputTokens(convertPage(request))
      } catch (error) {
        inProcess = { refused: (error as { detail?: string }).detail }
      }
      const pooled = await pool.convert(request).catch((error: { detail?: string }) => ({ refused: error.detail }))
      expect(JSON.stringify(pooled), `${request.url} ${JSON.stringify(request.options)}`).toBe(
        JSON.stringify(inProcess),
      )
    }
  })
})
