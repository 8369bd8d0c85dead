import { getJson, malformed, type UpstreamConnection } from '../inference/upstream/client'
import type { SearchQuery, SearchResult, WebSearchEngine } from './engine'
import { onSites, uniqueByUrl } from './sites'

/**
 * The query as a SearXNG-style API takes it: the words with a `site:` operator per site (most of its engines
 * honour it), `language` from `hl` and `gl` (`en-US`), `categories=news` for news, `pageno` for a page.
 */
export function upstreamParams(query: SearchQuery): URLSearchParams {
  const sites = query.sites.map((site) => `site:${site}`)
  const q = [query.q, sites.length > 1 ? `(${sites.join(' OR ')})` : sites[0]].filter(Boolean).join(' ')
  const params = new URLSearchParams({ q, format: 'json' })
  const language = query.hl && query.gl ? `${query.hl}-${query.gl.toUpperCase()}` : query.hl
  if (language) params.set('language', language)
  if (query.type === 'news') params.set('categories', 'news')
  if (query.page && query.page > 1) params.set('pageno', String(query.page))
  return params
}

/** A SearXNG-style JSON search (`?q=…&format=json`, answering `{results: [{url, title, content, publishedDate}]}`). */
export function createUpstreamSearch(connection: UpstreamConnection): WebSearchEngine {
  return {
    kind: 'upstream',
    async search(query: SearchQuery): Promise<SearchResult[]> {
      const answer = (await getJson(connection, `?${upstreamParams(query)}`)) as { results?: unknown }
      if (!Array.isArray(answer.results)) throw malformed('search', 'no results list')
      const results = answer.results.flatMap((item): SearchResult[] => {
        const result = item as Record<string, unknown>
        if (typeof result.url !== 'string' || !/^https?:\/\//i.test(result.url)) return []
        // An engine that ignored `site:` does not widen the search past the sites asked for.
        if (!onSites(result.url, query.sites)) return []
        return [
          {
            url: result.url,
            title: typeof result.title === 'string' ? result.title : result.url,
            description: typeof result.content === 'string' ? result.content : '',
            ...(typeof result.publishedDate === 'string' && { publishedTime: result.publishedDate }),
          },
        ]
      })
      return uniqueByUrl(results).slice(0, query.count)
    },
  }
}
