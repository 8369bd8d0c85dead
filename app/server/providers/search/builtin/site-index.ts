import type { MessageDescriptor } from '@lingui/core'
import { models } from '#content/models'
import { posts } from '#content/news'
import { papers } from '#content/papers'
import { products } from '#content/products'
import { i18nFor, loadCatalog } from '~/lib/i18n'
import { parsePage } from '../../reader/convert/html-document'
import { textOf } from '../../reader/convert/text'
import { yieldToLoop } from '../../../paced'

/** What a page of the site is: `type: news` keeps to the news posts. */
export type SitePageKind = 'product' | 'model' | 'paper' | 'news'

/** One page of this site as the built-in search finds it and deep search reads it. */
export interface SitePage {
  url: string
  title: string
  /** What a search result says of the page: its caption, excerpt or summary. */
  description: string
  /** The page's text as it shows it (a deep-search quote from it can be found on the page). */
  content: string
  /** ISO 8601, when the page says. */
  publishedTime?: string
  kind: SitePageKind
  /** What the search ranks on: the title and the text. */
  searchText: string
}

/** `2025/10/01` → ISO 8601 at midnight UTC. */
const isoDay = (day: string) => new Date(`${day.replaceAll('/', '-')}T00:00:00Z`).toISOString()

/** The first sentence of a text (a model's description is a paragraph; a result's description is a line). */
const firstSentence = (text: string) => text.match(/^.*?[.!?](?=\s|$)/s)?.[0] ?? text

/**
 * The site's own content as pages at their public URLs: products, models, papers (on the models page's
 * research section) and news. The text is what each page shows (the English catalog's wording; news
 * rendered from Markdown as the news page renders it), so a quote from it can be found on the page.
 */
async function buildIndex(baseUrl: string): Promise<SitePage[]> {
  const i18n = i18nFor('en-US', await loadCatalog('en-US'))
  const say = (descriptor: MessageDescriptor) => i18n._(descriptor)
  const page = (
    kind: SitePageKind,
    url: string,
    title: string,
    description: string,
    paragraphs: string[],
    publishedTime?: string,
  ): SitePage => {
    const content = paragraphs.filter(Boolean).join('\n\n')
    return {
      kind,
      url: `${baseUrl}${url}`,
      title,
      description,
      content,
      publishedTime,
      searchText: `${title}\n\n${content}`,
    }
  }
  const { marked } = await import('marked')
  // One post at a time, the loop given a turn after each: rendered and parsed together in one turn, the
  // posts held it ~50 ms on the first search.
  const news: SitePage[] = []
  for (const post of posts) {
    await yieldToLoop()
    const html = await marked.parse(post.body)
    const text = textOf([parsePage(html, baseUrl).body])
    news.push(page('news', `/news/${post.slug}`, post.title, post.excerpt, [post.excerpt, text], isoDay(post.date)))
  }
  return [
    ...products.map((product) =>
      page('product', product.homepage.replace('/{-$locale}', ''), say(product.label), say(product.caption), [
        say(product.caption),
        say(product.description),
        say(product.audience),
        say(product.pricing),
      ]),
    ),
    ...models.map((model) =>
      page(
        'model',
        `/models/${model.slug}`,
        model.name,
        firstSentence(say(model.description)),
        [say(model.description)],
        isoDay(model.releaseDate),
      ),
    ),
    ...papers.map((paper) =>
      page('paper', '/models#research', paper.title, firstSentence(paper.summary), [paper.summary], isoDay(paper.date)),
    ),
    ...news,
  ]
}

let built: { baseUrl: string; pages: Promise<SitePage[]> } | undefined

/** The index for this origin, built on first use and kept (the content is part of the build). */
export function siteIndex(baseUrl: string): Promise<SitePage[]> {
  if (built?.baseUrl !== baseUrl) built = { baseUrl, pages: buildIndex(baseUrl) }
  return built.pages
}
