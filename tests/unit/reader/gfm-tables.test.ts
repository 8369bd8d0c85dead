import { gfm, highlightedCodeBlock, strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm'
import { parseHTML } from 'linkedom'
import TurndownService from 'turndown'
import { describe, expect, it } from 'vitest'
import { linearTables, tableRows } from '~/server/providers/reader/convert/gfm-tables'
import { wideTable } from '../../support/hostile-pages'
import { threadCpuMs } from '../../support/thread-cpu'

const settings: TurndownService.Options = {
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
  emDelimiter: '_',
  linkStyle: 'inlined',
}
const linear = new TurndownService(settings).use([highlightedCodeBlock, strikethrough, linearTables, taskListItems])
const plugin = new TurndownService(settings).use(gfm)

/** The plugin reads `table.rows`, which linkedom lacks: given here as the reader gave it before. */
function withRows(document: Document): void {
  const prototype = Object.getPrototypeOf(document.createElement('table')) as object
  if (!('rows' in prototype))
    Object.defineProperty(prototype, 'rows', {
      configurable: true,
      get(this: Element) {
        return this.nodeName === 'TABLE' ? tableRows(this) : undefined
      },
    })
}

function markdownBoth(html: string): { linear: string; plugin: string } {
  const { document } = parseHTML(`<!doctype html><html><body><div>${html}</div></body></html>`)
  withRows(document as unknown as Document)
  const root = document.querySelector('body > div') as unknown as HTMLElement
  return { linear: linear.turndown(root), plugin: plugin.turndown(root) }
}

const tables = {
  'heading row in thead': `<table><thead><tr><th>Model</th><th>nDCG@10</th></tr></thead><tbody><tr><td>BM25</td><td>42.1</td></tr></tbody></table>`,
  'no heading row': `<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>`,
  'heading row of th in the first tbody': `<table><tbody><tr><th>x</th><th>y</th></tr><tr><td>1</td><td>2</td></tr></tbody></table>`,
  'aligned columns, by majority': `<table><tr><th align="right">n</th><th style="text-align: center">m</th><th>o</th></tr><tr><td align="right">1</td><td align="left">2</td><td align="justify">3</td></tr><tr><td align="left">4</td><td align="left">5</td><td>6</td></tr></table>`,
  'ragged rows and colspans': `<table><tr><th colspan="2">wide</th><th>c</th></tr><tr><td>1</td></tr><tr><td>1</td><td>2</td><td>3</td><td colspan="3">4</td></tr></table>`,
  'pipes, line breaks and empty cells': `<table><tr><th>a|b</th><th></th></tr><tr><td>one<br>two</td><td>x</td></tr></table>`,
  'a caption and a colgroup': `<table><caption>Results</caption><colgroup><col><col></colgroup><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>`,
  'a single cell': `<table><tr><td>alone</td></tr></table>`,
  'a table inside a table': `<table><tr><td><table><tr><td>in</td><td>ner</td></tr></table></td><td>out</td></tr></table>`,
  'a list inside (kept as HTML)': `<table><tr><td><ul><li>one</li></ul></td><td>b</td></tr></table>`,
  'a divider written in a single row': `<table><tr><td>| ---</td><td>x</td></tr></table>`,
  'an empty table': `<table></table>`,
  'a 20-column table of 30 rows': wideTable(30, 20),
}

describe('the reader’s GitHub tables', () => {
  for (const [name, html] of Object.entries(tables))
    it(`writes what @joplin/turndown-plugin-gfm writes: ${name}`, () => {
      const { linear, plugin } = markdownBoth(html)
      expect(linear).toBe(plugin)
    })

  it('converts a 50-column table in time that grows linearly with its rows (the plugin took 47 s for 1,000)', async () => {
    // The least CPU time of three at two sizes: the ratio holds on a loaded machine where a wall-clock budget would not.
    const bestMs = async (rows: number) => {
      const { document } = parseHTML(wideTable(rows, 50))
      let lines = 0
      const best = await threadCpuMs(() => {
        lines = linear.turndown(document.body as unknown as HTMLElement).split('\n').length
      })
      expect(lines).toBe(rows + 2)
      return best
    }
    const small = await bestMs(50)
    // Four times the rows: about four times the time if linear, sixteen if quadratic.
    expect((await bestMs(200)) / small).toBeLessThan(8)
  }, 60_000)

  it('writes a cell outside any table as its text, where the plugin threw', () => {
    const { document } = parseHTML('<div><td>stray</td></div>')
    expect(linear.turndown(document.querySelector('div') as unknown as HTMLElement)).toBe('stray')
  })
})
