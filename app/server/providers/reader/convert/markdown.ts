import { highlightedCodeBlock, strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm'
import TurndownService from 'turndown'
import { linearTables } from './gfm-tables'
import type { HtmlElement } from './html-document'

let service: TurndownService | undefined

/** One converter for the process: building its rules is the costly part, converting is not stateful. */
function turndown(): TurndownService {
  if (service) return service
  service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
    linkStyle: 'inlined',
  })
  // GitHub's Markdown as the plugin writes it, with its table rules replaced by linear-time ones (same output).
  service.use([highlightedCodeBlock, strikethrough, linearTables, taskListItems])
  // Forms and buttons are controls, not text; images without a source say nothing.
  service.remove(['form', 'button', 'select', 'input', 'textarea'])
  service.addRule('image-without-source', {
    filter: (node) => node.nodeName === 'IMG' && !node.getAttribute('src'),
    replacement: () => '',
  })
  return service
}

/**
 * Markdown of elements, each converted inside a wrapper of its own: turndown applies no rule to the node it
 * is given, only to what is inside, and a selected `<table>` or `<ul>` must keep its own markup.
 */
export function markdownOf(elements: HtmlElement[]): string {
  return elements
    .map((element) => {
      const wrapper = element.ownerDocument.createElement('div')
      wrapper.appendChild(element.cloneNode(true))
      return turndown()
        .turndown(wrapper as HTMLElement)
        .trim()
    })
    .filter(Boolean)
    .join('\n\n')
}
