import { highlightedCodeBlock, strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm'
import TurndownService from 'turndown'
import { linearTables } from './gfm-tables'
import type { HtmlElement } from './html-document'

/** How the Markdown is written (`X-Retain-Images`, `X-No-Gfm`, `X-Md-*`); each field's default is the reader's usual output. */
export interface MarkdownOptions {
  /** `all` (default): images as `![alt](src)`; `none`: left out; `alt`: their description only, as `(Image: alt)`. */
  retainImages?: 'all' | 'none' | 'alt'
  /** `all` (default): GitHub's tables, strikethrough and task lists; `no-tables`: all but tables; `none`: CommonMark only. */
  gfm?: 'all' | 'no-tables' | 'none'
  headingStyle?: 'atx' | 'setext'
  hr?: string
  bulletListMarker?: '-' | '+' | '*'
  emDelimiter?: '_' | '*'
  strongDelimiter?: '**' | '__'
  /** `discarded`: a link's text without its target. */
  linkStyle?: 'inlined' | 'referenced' | 'discarded'
  linkReferenceStyle?: 'full' | 'collapsed' | 'shortcut'
}

/** Converters by their options: building the rules is the costly part, converting is not stateful. */
const services = new Map<string, TurndownService>()

function turndown(options: MarkdownOptions): TurndownService {
  const key = JSON.stringify(options)
  const known = services.get(key)
  if (known) return known
  const service = new TurndownService({
    headingStyle: options.headingStyle ?? 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: options.bulletListMarker ?? '-',
    emDelimiter: options.emDelimiter ?? '_',
    strongDelimiter: options.strongDelimiter ?? '**',
    hr: options.hr ?? '* * *',
    linkStyle: options.linkStyle === 'referenced' ? 'referenced' : 'inlined',
    linkReferenceStyle: options.linkReferenceStyle ?? 'full',
  })
  // GitHub's Markdown as the plugin writes it, with its table rules replaced by linear-time ones (same output).
  const gfm = options.gfm ?? 'all'
  if (gfm === 'all') service.use([highlightedCodeBlock, strikethrough, linearTables, taskListItems])
  if (gfm === 'no-tables') service.use([highlightedCodeBlock, strikethrough, taskListItems])
  // Forms and buttons are controls, not text; images without a source say nothing.
  service.remove(['form', 'button', 'select', 'input', 'textarea'])
  service.addRule('image-without-source', {
    filter: (node) => node.nodeName === 'IMG' && !node.getAttribute('src'),
    replacement: () => '',
  })
  if (options.retainImages === 'none') service.addRule('images-left-out', { filter: 'img', replacement: () => '' })
  if (options.retainImages === 'alt')
    service.addRule('images-as-alt', {
      filter: 'img',
      replacement: (_content, node) => {
        const alt = ((node as HTMLElement).getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim()
        return alt ? `(Image: ${alt})` : ''
      },
    })
  if (options.linkStyle === 'discarded')
    service.addRule('links-as-text', {
      filter: (node) => node.nodeName === 'A' && node.getAttribute('href') !== null,
      replacement: (content) => content,
    })
  // A few option sets in use at once; a caller sending a new one each time cannot grow this without bound.
  if (services.size >= 32) services.delete(services.keys().next().value!)
  services.set(key, service)
  return service
}

/**
 * Markdown of elements, each converted inside a wrapper of its own: turndown applies no rule to the node it
 * is given, only to what is inside, and a selected `<table>` or `<ul>` must keep its own markup.
 */
export function markdownOf(elements: HtmlElement[], options: MarkdownOptions = {}): string {
  const service = turndown(options)
  return elements
    .map((element) => {
      const wrapper = element.ownerDocument.createElement('div')
      wrapper.appendChild(element.cloneNode(true))
      return service.turndown(wrapper as HTMLElement).trim()
    })
    .filter(Boolean)
    .join('\n\n')
}
