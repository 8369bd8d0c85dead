import type TurndownService from 'turndown'

/**
 * GitHub tables for turndown, writing what `@joplin/turndown-plugin-gfm`'s table rules write, in time linear
 * in the table. The plugin finds a table's rows again for every row, every column's alignment again for every
 * column and every cell's index again for every cell (a 50-column table of 1,000 rows took 47 s), so what it
 * asks of a table is worked out here once per table, and once per row.
 */

type Cell = Element | ChildNode

interface TableFacts {
  rows: Element[]
  /** The most child nodes of any row (text nodes count, as in the plugin). */
  columnCount: number
  /** Each column's alignment, by majority of its cells. */
  alignments: string[]
  /** Cells are written one after the other, not as a table: a single cell, or a table inside. */
  skipped: boolean
}

const alignMap: Record<string, string> = { left: ':---', right: '---:', center: ':---:' }
/** Tables holding these stay HTML in the plugin; turndown's own rules then write their content. */
const htmlInside = new Set(['UL', 'OL', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HR', 'BLOCKQUOTE'])
/** As the HTML standard clamps it. */
const MAX_COLSPAN = 1000

const facts = new WeakMap<Element, TableFacts>()
const rowCells = new WeakMap<Element, ChildNode[]>()
const cellIndex = new WeakMap<ChildNode, number>()

const isElement = (node: Cell | null | undefined): node is Element => node?.nodeType === 1

/** A table's rows in document order, as `HTMLTableElement.rows` gives them (its own, not nested tables'). */
export function tableRows(table: Element): Element[] {
  const rows: Element[] = []
  for (const child of table.children) {
    if (child.nodeName === 'TR') rows.push(child)
    else if (/^T(HEAD|BODY|FOOT)$/.test(child.nodeName))
      for (const row of child.children) if (row.nodeName === 'TR') rows.push(row)
  }
  return rows
}

/** A row's child nodes, listed once (a server DOM builds the list anew on every `childNodes` read). */
function cellsOf(row: Element): ChildNode[] {
  let cells = rowCells.get(row)
  if (!cells) {
    cells = [...row.childNodes]
    rowCells.set(row, cells)
    cells.forEach((cell, index) => cellIndex.set(cell, index))
  }
  return cells
}

/** Whether any node under `root` passes `test`, walked without recursion. */
function someDescendant(root: Node, test: (node: Node) => boolean): boolean {
  const pending: Node[] = [...root.childNodes].reverse()
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (test(node)) return true
    for (let child = node.lastChild; child; child = child.previousSibling) pending.push(child)
  }
  return false
}

function alignmentOf(node: Cell | undefined): string {
  if (!isElement(node)) return ''
  return (node.getAttribute('align') || (node as HTMLElement).style?.textAlign || '').toLowerCase()
}

function factsOf(table: Element): TableFacts {
  let known = facts.get(table)
  if (known) return known
  const rows = tableRows(table)
  let columnCount = 0
  const votes: Array<Record<string, number>> = []
  const alignments: string[] = []
  for (const row of rows) {
    const cells = cellsOf(row)
    columnCount = Math.max(columnCount, cells.length)
    cells.forEach((cell, column) => {
      const alignment = alignmentOf(cell)
      const tally = (votes[column] ??= { left: 0, right: 0, center: 0, '': 0 })
      // As in the plugin: an alignment it does not know counts NaN and never leads; the first to get more
      // votes than the one leading so far takes the lead.
      tally[alignment] = tally[alignment] + 1
      if (tally[alignment] > tally[alignments[column] ?? '']) alignments[column] = alignment
    })
  }
  const skipped =
    (rows.length === 1 && cellsOf(rows[0]).length <= 1) || someDescendant(table, (node) => node.nodeName === 'TABLE')
  known = { rows, columnCount, alignments, skipped }
  facts.set(table, known)
  return known
}

function parentTable(node: Node): Element | undefined {
  for (let parent = node.parentNode; parent; parent = parent.parentNode)
    if (parent.nodeName === 'TABLE') return parent as Element
  return undefined
}

const border = (alignment: string | undefined) => (alignment ? alignMap[alignment] : '---')

function colspanOf(node: Cell): number {
  if (!isElement(node)) return 1
  const colspan = Number(node.getAttribute('colspan') || 1)
  return Number.isNaN(colspan) ? 1 : Math.min(colspan, MAX_COLSPAN)
}

function cell(content: string, node: Cell | undefined, index: number): string {
  const prefix = index === 0 ? '| ' : ' '
  let text = content.trim().replace(/\n\r/g, '<br>').replace(/\n/g, '<br>').replace(/\|+/g, '\\|')
  while (text.length < 3) text += ' '
  if (node) for (let i = 1; i < colspanOf(node); i++) text += ` | ${' '.repeat(3)}`
  return `${prefix}${text} |`
}

function isFirstTbody(element: Node): boolean {
  const previous = element.previousSibling
  return (
    element.nodeName === 'TBODY' &&
    (!previous || (previous.nodeName === 'THEAD' && /^\s*$/i.test(previous.textContent ?? '')))
  )
}

function isHeadingRow(row: Element): boolean {
  const parent = row.parentNode!
  return (
    parent.nodeName === 'THEAD' ||
    (parent.firstChild === row &&
      (parent.nodeName === 'TABLE' || isFirstTbody(parent)) &&
      cellsOf(row).every((node) => node.nodeName === 'TH'))
  )
}

/** Whether the plugin keeps the table as HTML (lists, headings and the like inside). */
function staysHtml(table: Element): boolean {
  // The plugin also asks for descendants named inside the string 'code' (its check for code blocks, which
  // turndown does not provide): no HTML element is, but the test is kept so the answers stay the same.
  return someDescendant(table, (node) => 'code'.includes(node.nodeName) || htmlInside.has(node.nodeName))
}

function parentDiv(node: Node): Element | null {
  for (let parent = node.parentNode; parent; parent = parent.parentNode)
    if (parent.nodeName === 'DIV') return parent as Element
  return null
}

/** The rules, to `use` in place of the plugin's `tables`. */
export function linearTables(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement(content, node) {
      const table = parentTable(node)
      if (!table || factsOf(table).skipped) return content
      cellsOf(node.parentNode as Element)
      return cell(content, node as Element, cellIndex.get(node as ChildNode)!)
    },
  })
  service.addRule('tableRow', {
    filter: 'tr',
    replacement(content, node) {
      const table = parentTable(node)
      if (!table) return content
      const table_ = factsOf(table)
      if (table_.skipped) return content
      let borderCells = ''
      if (isHeadingRow(node as Element)) {
        const cells = cellsOf(node as Element)
        for (let i = 0; i < table_.columnCount; i++)
          borderCells += cell(border(table_.alignments[i]), i < cells.length ? cells[i] : undefined, i)
      }
      return `\n${content}${borderCells ? `\n${borderCells}` : ''}`
    },
  })
  service.addRule('table', {
    filter: (node) => node.nodeName === 'TABLE',
    replacement(content, node) {
      if (staysHtml(node)) {
        const html = node.outerHTML
        const wrapper = parentDiv(node)
        return wrapper?.classList.contains('joplin-table-wrapper')
          ? html
          : `\n\n<div class="joplin-table-wrapper">${html}</div>\n\n`
      }
      const table = factsOf(node)
      if (table.skipped) return content
      content = content.replace(/\n+/g, '\n')
      const lines = content.trim().split('\n')
      const secondLineIsDivider = /\| :?---/.test(lines.length >= 2 ? lines[1] : lines[0])
      let emptyHeader = ''
      if (table.columnCount && !secondLineIsDivider) {
        emptyHeader = `|${'     |'.repeat(table.columnCount)}\n|`
        for (let i = 0; i < table.columnCount; i++) emptyHeader += ` ${border(table.alignments[i])} |`
      }
      const caption = node.querySelector('caption')?.textContent ?? ''
      return `\n\n${caption ? `${caption}\n\n` : ''}${`${emptyHeader}${content}`.trimStart()}\n\n`
    },
  })
  service.addRule('tableCaption', { filter: ['caption'], replacement: () => '' })
  service.addRule('tableColgroup', { filter: ['colgroup', 'col'], replacement: () => '' })
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content })
}
