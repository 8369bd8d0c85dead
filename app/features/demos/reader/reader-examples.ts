import { msg } from '@lingui/core/macro'
import type { Example } from '../parts/example-picker'

export const readerFormats = ['content', 'markdown', 'text', 'html'] as const
export type ReaderFormat = (typeof readerFormats)[number]
export const readerEngines = ['direct', 'browser', 'auto'] as const
export type ReaderEngine = (typeof readerEngines)[number]

export interface ReaderValues {
  url: string
  format: ReaderFormat
  engine: ReaderEngine
  links: boolean
  images: boolean
  screenshot: boolean
  noCache: boolean
}

/** The reader's own default engine: the direct read, and the browser when the page needs it. */
const options = { engine: 'auto', links: false, images: false, screenshot: false, noCache: false } as const

/**
 * The examples. The first two read this very site, so they answer wherever it is served, offline too: a news
 * post, and a sample page whose text only its script writes (`public/reader-samples/`), which the default
 * engine renders in the browser (with a screenshot); read it with the direct fetch to see what the browser adds.
 */
export function readerExamples(siteOrigin: string): readonly Example<ReaderValues>[] {
  return [
    {
      id: 'news',
      label: msg`A news post on this site`,
      values: { url: `${siteOrigin}/news/deepsearch-launch`, format: 'content', ...options },
    },
    {
      id: 'scripted',
      label: msg`A page its script writes, in the browser`,
      values: {
        url: `${siteOrigin}/reader-samples/scripted-page.html`,
        format: 'content',
        ...options,
        screenshot: true,
      },
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
