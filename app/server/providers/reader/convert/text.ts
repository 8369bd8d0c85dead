import type { HtmlElement } from './html-document'

/** Elements that start a new line in rendered text, as browsers lay them out. */
const blocks = new Set(
  'ADDRESS ARTICLE ASIDE BLOCKQUOTE BR DD DETAILS DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR LI MAIN NAV OL P PRE SECTION SUMMARY TABLE TR UL'.split(
    ' ',
  ),
)

/**
 * The text a reader sees, roughly as `innerText` gives it (a server DOM has no layout): block elements on
 * lines of their own, table cells separated by tabs, runs of white space collapsed outside `<pre>`.
 */
export function textOf(elements: HtmlElement[]): string {
  const out: string[] = []
  const visit = (node: HtmlElement, pre: boolean) => {
    for (const child of node.childNodes as unknown as HtmlElement[]) {
      if (child.nodeType === 3)
        out.push(pre ? (child.textContent ?? '') : (child.textContent ?? '').replace(/\s+/g, ' '))
      else if (child.nodeType === 1) {
        const name = child.nodeName
        const block = blocks.has(name)
        if (block) out.push('\n')
        if (name === 'TD' || name === 'TH') out.push('\t')
        visit(child, pre || name === 'PRE')
        if (block) out.push('\n')
      }
    }
  }
  for (const element of elements) {
    visit(element, false)
    out.push('\n')
  }
  return out
    .join('')
    .split('\n')
    .map((line) => line.replace(/^[ \t]+|[ \t]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}
