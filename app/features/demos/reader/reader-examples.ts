import { msg } from '@lingui/core/macro'
import type { Example } from '../parts/example-picker'

export const readerFormats = ['content', 'markdown', 'text', 'html'] as const
export type ReaderFormat = (typeof readerFormats)[number]

export interface ReaderValues {
  url: string
  format: ReaderFormat
  links: boolean
  images: boolean
  noCache: boolean
}

const options = { links: false, images: false, noCache: false }

/** The examples; the first reads a page of this very site, so it works wherever the site is served. */
export function readerExamples(siteOrigin: string): readonly Example<ReaderValues>[] {
  return [
    {
      id: 'news',
      label: msg`A news post on this site`,
      values: { url: `${siteOrigin}/news/deepsearch-launch`, format: 'content', ...options },
    },
    {
      id: 'wikipedia',
      label: msg`An encyclopedia article`,
      values: { url: 'https://en.wikipedia.org/wiki/Web_search_engine', format: 'content', ...options, images: true },
    },
    {
      id: 'links',
      label: msg`A page of links`,
      values: { url: 'https://news.ycombinator.com/', format: 'markdown', ...options, links: true },
    },
  ]
}
