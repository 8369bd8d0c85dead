import type { HtmlElement } from './html-document'

const collapse = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()

/** `X-With-Links-Summary`: text to URL, once per text (`true`), or every link as `[text, url]` in order (`all`). */
export type LinkSummary = Record<string, string> | Array<[string, string]>

const textOfLink = (anchor: HtmlElement, href: string) =>
  collapse(anchor.textContent) || collapse(anchor.getAttribute('title')) || href

/**
 * `X-With-Links-Summary: all`: every link of the page in document order, duplicates kept, as the original
 * answers it (`[text, url]` pairs); `mailto:` links too, as they are links a reader may want.
 */
export function allLinksOf(root: HtmlElement): Array<[string, string]> {
  const links: Array<[string, string]> = []
  for (const anchor of root.querySelectorAll('a[href], area[href]')) {
    const href = anchor.getAttribute('href')!
    links.push([textOfLink(anchor, href), href])
  }
  return links
}

/**
 * `X-With-Images-Summary: all`: every image of the page in document order, in the navigation and footer too,
 * each numbered (`Image n` or `Image n: alt`), so an image shown twice is listed twice.
 */
export function allImagesOf(root: HtmlElement): Record<string, string> {
  const images: Record<string, string> = {}
  let count = 0
  for (const image of root.querySelectorAll('img[src]')) {
    const src = image.getAttribute('src')!
    if (!/^https?:/i.test(src)) continue
    const alt = collapse(image.getAttribute('alt'))
    images[`Image ${++count}${alt ? `: ${alt}` : ''}`] = src
  }
  return images
}

/** A links summary as `[text, url]` pairs, whichever shape it has. */
export const linkPairs = (links: LinkSummary): Array<[string, string]> =>
  Array.isArray(links) ? links : Object.entries(links)

/** Each link's text (or its URL, when it has none) to its absolute URL; the first link with a text wins; `mailto:` kept. */
export function linksOf(roots: HtmlElement[]): Record<string, string> {
  const links: Record<string, string> = {}
  for (const root of roots)
    for (const anchor of root.querySelectorAll('a[href]')) {
      const href = anchor.getAttribute('href')!
      if (!/^(https?|mailto):/i.test(href)) continue
      const text = textOfLink(anchor, href)
      if (!(text in links)) links[text] = href
    }
  return links
}

/**
 * Each image as the Markdown numbers it (`Image 1: alt`, `Image 2` without one) to its absolute URL, once per
 * URL (the first time it is shown). Every image with a source counts, as in the Markdown, so the numbers agree.
 */
export function imagesOf(roots: HtmlElement[]): Record<string, string> {
  const images: Record<string, string> = {}
  const seen = new Set<string>()
  let count = 0
  for (const root of roots)
    for (const image of root.querySelectorAll('img[src]')) {
      const src = image.getAttribute('src')!
      if (!src) continue
      count++
      if (!/^https?:/i.test(src) || seen.has(src)) continue
      seen.add(src)
      const alt = collapse(image.getAttribute('alt'))
      images[`Image ${count}${alt ? `: ${alt}` : ''}`] = src
    }
  return images
}

/** The summaries as the text answer appends them. */
export function summaryText(links: LinkSummary, images: Record<string, string>): string {
  const parts: string[] = []
  const linkEntries = linkPairs(links)
  const imageEntries = Object.entries(images)
  if (linkEntries.length)
    parts.push(`Links/Buttons:\n${linkEntries.map(([text, href]) => `- [${text}](${href})`).join('\n')}`)
  if (imageEntries.length) parts.push(`Images:\n${imageEntries.map(([alt, src]) => `- ![${alt}](${src})`).join('\n')}`)
  return parts.join('\n\n')
}
