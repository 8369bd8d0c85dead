import { highlightedCodeBlock, strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm'
import TurndownService from 'turndown'
import { linearTables } from './gfm-tables'
import type { HtmlElement } from './html-document'

/** How the Markdown is written (`X-Retain-Images`, `X-No-Gfm`, `X-Md-*`); each field's default is the reader's usual output. */
export interface MarkdownOptions {
  /**
   * `all` (default): images numbered as the original numbers them, `![Image 1: alt](src)` (`![Image 2](src)`
   * without a description); `none`: left out; `alt`: the description only, `(Image 1: alt)`. `all_p` and `alt_p`:
   * the same without the numbers, `![alt](src)` and `(Image: alt)`.
   */
  retainImages?: 'all' | 'none' | 'alt' | 'all_p' | 'alt_p'
  /** `X-Retain-Links`: `none` drops links with their text, `text` keeps their text, `gpt-oss` writes `【0†text†host】`. */
  retainLinks?: 'none' | 'text' | 'gpt-oss'
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

/** What one `markdownOf` call has numbered so far (conversion is synchronous: one call at a time). */
const numbered = { images: 0, links: 0 }

const collapse = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim()

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
  const retain = options.retainImages ?? 'all'
  if (retain === 'none') service.addRule('images-left-out', { filter: 'img', replacement: () => '' })
  if (retain === 'alt_p')
    service.addRule('images-as-alt', {
      filter: 'img',
      replacement: (_content, node) => {
        const alt = collapse((node as HTMLElement).getAttribute('alt'))
        return alt ? `(Image: ${alt})` : ''
      },
    })
  if (retain === 'all' || retain === 'alt')
    // Numbered in document order, as the images summary keys them (`./summaries.ts`, `imagesOf`).
    service.addRule('images-numbered', {
      filter: 'img',
      replacement: (_content, node) => {
        const image = node as HTMLElement
        const number = ++numbered.images
        const alt = collapse(image.getAttribute('alt'))
        const name = `Image ${number}${alt ? `: ${alt.replace(/[[\]]/g, '\\$&')}` : ''}`
        if (retain === 'alt') return alt ? `(${name})` : ''
        return `![${name}](${image.getAttribute('src')})`
      },
    })
  const link = (node: HTMLElement) => node.nodeName === 'A' && node.getAttribute('href') !== null
  if (options.retainLinks === 'none') service.addRule('links-left-out', { filter: link, replacement: () => '' })
  else if (options.linkStyle === 'discarded' || options.retainLinks === 'text')
    service.addRule('links-as-text', { filter: link, replacement: (content) => content })
  else if (options.retainLinks === 'gpt-oss')
    // As gpt-oss's browsing tool shows a page's links: `【index†text†host】`, counted from 0.
    service.addRule('links-gpt-oss', {
      filter: link,
      replacement: (content, node) => {
        const href = (node as HTMLElement).getAttribute('href') ?? ''
        let host = href
        try {
          host = new URL(href).host || href
        } catch {
          // a link that is no URL keeps its text as it is
        }
        return `【${numbered.links++}†${collapse(content) || href}†${host}】`
      },
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
  numbered.images = 0
  numbered.links = 0
  return elements
    .map((element) => {
      const wrapper = element.ownerDocument.createElement('div')
      wrapper.appendChild(element.cloneNode(true))
      return service.turndown(wrapper as HTMLElement).trim()
    })
    .filter(Boolean)
    .join('\n\n')
}
