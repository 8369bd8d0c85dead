import { createRequire } from 'node:module'
import { runInThisContext } from 'node:vm'
import { PageNotRead } from '../../../domain/refusals'
import { convertPage, type ConvertedPage, type PdfRequest } from './convert'
import { withInflationLimit } from './pdf-inflation'
import pdfjsSource from './pdfjs.ts?thread'

/** Pages of a PDF the reader reads before refusing it (422). */
export const MAX_PDF_PAGES = 500

export interface PdfText {
  title: string
  /** Markdown: the text line by line, lines set larger than the body as headings, pages apart. */
  content: string
  pages: number
}

interface Line {
  text: string
  size: number
}

/** `#` for the largest size set above the body text, `##` and `###` for the next ones. */
function headingLevels(lines: Line[]): Map<number, number> {
  const chars = new Map<number, number>()
  for (const line of lines) chars.set(line.size, (chars.get(line.size) ?? 0) + line.text.length)
  const body = [...chars.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0
  const larger = [...chars.keys()].filter((size) => size >= body * 1.15).sort((a, b) => b - a)
  return new Map(larger.slice(0, 3).map((size, i) => [size, i + 1]))
}

/** A PDF as the reader answers it: its text as Markdown, converted as text, with its title and page count. */
export async function convertPdf({ source, url, options }: PdfRequest): Promise<ConvertedPage> {
  const pdf = await pdfToMarkdown(source)
  return { ...convertPage({ source: pdf.content, kind: 'text', url, options }), title: pdf.title, pages: pdf.pages }
}

/**
 * The text of a PDF as Markdown, with pdf.js (through unpdf), within the reader's limits: MAX_PDF_PAGES
 * pages, and what its streams inflate to (./pdf-inflation.ts); time and memory are the converter's
 * (../convert-pool). Hostile bytes are all pdf.js ever parses here: whatever it fails on (a truncated
 * file, a page tree that contains itself) is a damaged PDF, refused with 422.
 */
export function pdfToMarkdown(bytes: Uint8Array): Promise<PdfText> {
  const pdfjs = loadedPdfjs()
  return withInflationLimit(async () => {
    try {
      return await readPdf(pdfjs, bytes)
    } catch (error) {
      if (error instanceof PageNotRead) throw error
      throw new PageNotRead('content-type', 'The PDF could not be read (it is damaged or encrypted)', { cause: error })
    }
  })
}

type Pdfjs = typeof import('./pdfjs')
let loaded: Pdfjs | undefined

/** pdf.js, evaluated on first use from its bundle (a CommonJS script needing only Node's built-ins). */
function loadedPdfjs(): Pdfjs {
  if (!loaded) {
    const module = { exports: {} as Pdfjs }
    const run = runInThisContext(`(function (exports, require, module) {${pdfjsSource}\n})`, { filename: 'pdfjs.cjs' })
    run(module.exports, createRequire(`${process.cwd()}/`), module)
    loaded = module.exports
  }
  return loaded
}

async function readPdf({ getDocumentProxy }: Pdfjs, bytes: Uint8Array): Promise<PdfText> {
  // A copy: pdf.js takes ownership of (detaches) the buffer it is given.
  const pdf = await getDocumentProxy(new Uint8Array(bytes))
  try {
    if (pdf.numPages > MAX_PDF_PAGES)
      throw new PageNotRead(
        'too-large',
        `The PDF has ${pdf.numPages} pages, more than the reader's limit of ${MAX_PDF_PAGES}`,
      )
    const pages: Line[][] = []
    for (let number = 1; number <= pdf.numPages; number++) {
      const page = await pdf.getPage(number)
      const { items } = await page.getTextContent()
      const lines: Line[] = []
      let text = ''
      let size = 0
      let y: number | undefined
      const endLine = () => {
        if (text.trim()) lines.push({ text: text.trim().replace(/\s+/g, ' '), size })
        text = ''
        size = 0
      }
      for (const item of items) {
        if (!('str' in item)) continue
        // A line is what sits on one baseline: a new baseline starts a new line.
        const baseline = Math.round(item.transform[5])
        if (y !== undefined && baseline !== y && item.str.trim()) endLine()
        if (item.str.trim()) y = baseline
        text += item.str
        if (item.str.trim())
          size = Math.max(size, Math.round(Math.hypot(item.transform[2], item.transform[3]) * 10) / 10)
        else if (item.hasEOL) text += ' '
      }
      endLine()
      pages.push(lines)
      page.cleanup()
    }
    const levels = headingLevels(pages.flat())
    const content = pages
      .map((lines) =>
        lines
          .map(({ text, size }) => {
            const level = levels.get(size)
            // A heading is a short line; a long one in a large size is still a paragraph.
            return level && text.length <= 150 ? `\n${'#'.repeat(level)} ${text}\n` : text
          })
          .join('\n')
          .trim(),
      )
      .filter(Boolean)
      .join('\n\n')
    const info = ((await pdf.getMetadata().catch(() => undefined))?.info ?? {}) as { Title?: unknown }
    const firstHeading = content.match(/^#+ (.+)$/m)?.[1]
    const title = (typeof info.Title === 'string' && info.Title.trim()) || firstHeading || ''
    return { title, content: content.replace(/\n{3,}/g, '\n\n'), pages: pdf.numPages }
  } finally {
    // Frees the parsed document (the type unpdf ships leaves destroy out).
    await (pdf as unknown as { destroy?: () => Promise<void> }).destroy?.().catch(() => undefined)
  }
}
