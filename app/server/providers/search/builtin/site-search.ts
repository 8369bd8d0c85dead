import { bm25Scores } from '../../inference/builtin/bm25'
import { termsOf } from '../../inference/builtin/terms'
import type { SearchQuery, SearchResult, WebSearchEngine } from '../engine'
import { onSites, uniqueByUrl } from '../sites'
import { siteIndex, type SitePage } from './site-index'

export interface SearchHit {
  page: SitePage
  score: number
}

export interface SiteSearchOptions {
  /** Results wanted at most. */
  limit: number
  /** Which pages may be found (deep search's host preferences, the endpoint's `site` and `type`). */
  allowed?: (page: SitePage) => boolean
  /** How much a page's score is raised (deep search's favoured hosts); 1 by default. */
  boost?: (page: SitePage) => number
}

/** Pages of the index that match the query, best first (BM25 over title and text, raised where `boost` says). */
export function searchSite(pages: SitePage[], query: string, options: SiteSearchOptions): SearchHit[] {
  const allowed = options.allowed ? pages.filter(options.allowed) : pages
  const scores = bm25Scores(
    query,
    allowed.map((page) => page.searchText),
  )
  return allowed
    .map((page, i) => ({ page, score: scores[i] * (options.boost?.(page) ?? 1) }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, options.limit)
}

/** The built-in engine: a web search over the site's own pages, whose pages deep search also reads as they are. */
export interface BuiltinSearch extends WebSearchEngine {
  readonly kind: 'builtin'
  /** The pages that match, with their text (deep search reads them without fetching). */
  hits(query: string, options: SiteSearchOptions): Promise<SearchHit[]>
}

/**
 * How much a result is raised for naming the query in its title, by the share of the query's terms it names
 * (and once more when the title is the query): a search for a product finds its page first, ahead of the
 * pages that mention it most often.
 */
export function titleBoost(query: string): (page: SitePage) => number {
  const wanted = new Set(termsOf(query))
  return (page) => {
    if (wanted.size === 0) return 1
    const title = new Set(termsOf(page.title))
    const named = [...wanted].filter((term) => title.has(term)).length
    // A title that is the query (the product "Reranker" for `reranker`) counts once more.
    const exact = named > 0 && [...title].every((term) => wanted.has(term)) ? 1 : 0
    return 1 + named / wanted.size + exact
  }
}

export function createBuiltinSearch(baseUrl: string): BuiltinSearch {
  const hits = async (query: string, options: SiteSearchOptions) => searchSite(await siteIndex(baseUrl), query, options)
  return {
    kind: 'builtin',
    hits,
    async search(query: SearchQuery): Promise<SearchResult[]> {
      const allowed = (page: SitePage) =>
        onSites(page.url, query.sites) && (query.type !== 'news' || page.kind === 'news')
      // Each page once: the papers share the models page, so more are asked for than kept.
      const found = await hits(query.q, {
        allowed,
        boost: titleBoost(query.q),
        limit: (query.page ?? 1) * query.count * 3 + 10,
      })
      const pages = uniqueByUrl(found.map((hit) => hit.page))
      const first = ((query.page ?? 1) - 1) * query.count
      return pages.slice(first, first + query.count).map((page) => ({
        url: page.url,
        title: page.title,
        description: page.description,
        ...(page.publishedTime && { publishedTime: page.publishedTime }),
      }))
    },
  }
}
