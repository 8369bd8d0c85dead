import { Marked, type Token, type Tokens } from 'marked'
import { codeInfo, documentedOrigins } from '#content/docs'
import type { DocBlock, DocHeading, RenderedDoc } from './rendered-doc'

/** Plain text of inline Markdown, for a heading's id and its entry in "On this page". */
const plainText = (markdown: string) =>
  markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '')
    .trim()

const headingId = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '') || 'section'

/**
 * Renders one documentation page. The samples' documented origins become this server's (so what a visitor copies
 * calls the server they read it on); headings get ids; tables, which may scroll sideways on a phone, are
 * focusable (axe: scrollable-region-focusable).
 */
export function renderDoc(body: string, origins: { api: string; site: string }): RenderedDoc {
  const trim = (url: string) => url.replace(/\/+$/, '')
  const source = body
    .replaceAll(documentedOrigins.api, trim(origins.api))
    .replaceAll(documentedOrigins.site, trim(origins.site))
  const headings: DocHeading[] = []
  const taken = new Map<string, number>()
  const marked = new Marked({
    renderer: {
      heading({ tokens, depth, text }: Tokens.Heading) {
        const plain = plainText(text)
        const base = headingId(plain)
        const seen = taken.get(base) ?? 0
        taken.set(base, seen + 1)
        const id = seen === 0 ? base : `${base}-${seen + 1}`
        if (depth === 2 || depth === 3) headings.push({ id, text: plain, level: depth })
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`
      },
    },
  })
  const blocks: DocBlock[] = []
  let pending: Token[] = []
  const flush = () => {
    if (pending.length === 0) return
    const html = (marked.parser(pending as Token[] & { links: never }) as string).replaceAll(
      '<table>',
      '<table tabindex="0">',
    )
    if (html.trim()) blocks.push({ kind: 'html', html })
    pending = []
  }
  const tokens = marked.lexer(source)
  for (const token of tokens) {
    if (token.type === 'code') {
      flush()
      blocks.push({ kind: 'code', code: (token as Tokens.Code).text, ...codeInfo((token as Tokens.Code).lang ?? '') })
    } else pending.push(token)
  }
  flush()
  return { blocks, headings }
}
