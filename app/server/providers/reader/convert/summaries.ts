import type { HtmlElement } from './html-document'

const collapse = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()

/** Each link's text (or its URL, when it has none) to its absolute URL; the first link with a text wins. */
export function linksOf(roots: HtmlElement[]): Record<string, string> {
  const links: Record<string, string> = {}
  for (const root of roots)
    for (const anchor of root.querySelectorAll('a[href]')) {
      const href = anchor.getAttribute('href')!
      if (!/^https?:/i.test(href)) continue
      const text = collapse(anchor.textContent) || collapse(anchor.getAttribute('title')) || href
      if (!(text in links)) links[text] = href
    }
  return links
}

/** Each image's description (its alt text, else "Image n") to its absolute URL, once per URL. */
export function imagesOf(roots: HtmlElement[]): Record<string, string> {
  const images: Record<string, string> = {}
  const seen = new Set<string>()
  let count = 0
  for (const root of roots)
    for (const image of root.querySelectorAll('img[src]')) {
      const src = image.getAttribute('src')!
      if (!/^https?:/i.test(src) || seen.has(src)) continue
      seen.add(src)
      count++
      const alt = collapse(image.getAttribute('alt'))
      images[alt && !(alt in images) ? alt : `Image ${count}`] = src
    }
  return images
}

/** The summaries as the text answer appends them. */
export function summaryText(links: Record<string, string>, images: Record<string, string>): string {
  const parts: string[] = []
  const linkEntries = Object.entries(links)
  const imageEntries = Object.entries(images)
  if (linkEntries.length)
    parts.push(`Links/Buttons:\n${linkEntries.map(([text, href]) => `- [${text}](${href})`).join('\n')}`)
  if (imageEntries.length) parts.push(`Images:\n${imageEntries.map(([alt, src]) => `- ![${alt}](${src})`).join('\n')}`)
  return parts.join('\n\n')
}
