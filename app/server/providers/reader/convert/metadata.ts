import type { HtmlDocument } from './html-document'

export interface PageMetadata {
  title: string
  description: string
  publishedTime: string | undefined
}

const collapse = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()

function meta(document: HtmlDocument, ...selectors: string[]): string {
  for (const selector of selectors) {
    const value = collapse(document.querySelector(selector)?.getAttribute('content'))
    if (value) return value
  }
  return ''
}

/** A date as ISO 8601 when it reads as one; anything else is not a published time we can vouch for. */
function isoTime(text: string | undefined): string | undefined {
  if (!text) return undefined
  const time = Date.parse(text)
  return Number.isNaN(time) ? undefined : new Date(time).toISOString()
}

/** `datePublished` of the page's JSON-LD (schema.org Article and kin), searched through graphs and lists. */
function jsonLdPublished(document: HtmlDocument): string | undefined {
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    let data: unknown
    try {
      data = JSON.parse(script.textContent ?? '')
    } catch {
      continue
    }
    const pending = [data]
    for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
      if (Array.isArray(item)) pending.push(...item)
      else if (item && typeof item === 'object') {
        const record = item as Record<string, unknown>
        if (typeof record.datePublished === 'string') return record.datePublished
        if (record['@graph']) pending.push(record['@graph'])
      }
    }
  }
  return undefined
}

/** Title, description and publication time, from the page's metadata before its text. */
export function metadataOf(document: HtmlDocument): PageMetadata {
  const title =
    meta(document, 'meta[property="og:title"]', 'meta[name="twitter:title"]') ||
    collapse(document.querySelector('title')?.textContent) ||
    collapse(document.querySelector('h1')?.textContent)
  const description = meta(
    document,
    'meta[name="description"]',
    'meta[property="og:description"]',
    'meta[name="twitter:description"]',
  )
  const published =
    meta(
      document,
      'meta[property="article:published_time"]',
      'meta[name="article:published_time"]',
      'meta[itemprop="datePublished"]',
      'meta[name="date"]',
      'meta[name="dc.date"]',
      'meta[name="DC.date.issued"]',
    ) ||
    jsonLdPublished(document) ||
    document.querySelector('time[datetime]')?.getAttribute('datetime') ||
    undefined
  return { title, description, publishedTime: isoTime(published) }
}
