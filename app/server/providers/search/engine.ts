/**
 * The one web search of this server: the search endpoint (`/s`), deep search and the LLM-SERP demo (which
 * runs deep search) all search through an engine of this module. `builtin` searches this site's own pages
 * offline; `upstream` asks a SearXNG-style JSON API (SEARCH_API_URL).
 */

/** What a search asks for. */
export interface SearchQuery {
  /** The words searched for, as the caller wrote them. */
  q: string
  /** Results wanted at most. */
  count: number
  /** Host names the results must be on (a name or its subdomains); empty: anywhere. */
  sites: string[]
  /** `web` (default) or `news` (news posts and articles only). */
  type: 'web' | 'news'
  /** Country (`us`) and interface language (`en`) of the results, as the original's `gl` and `hl`. */
  gl?: string
  hl?: string
  /** Page of results, from 1. */
  page?: number
}

/** One result, before it is read. */
export interface SearchResult {
  url: string
  title: string
  /** The engine's snippet. */
  description: string
  /** ISO 8601, when the engine says. */
  publishedTime?: string
}

export interface WebSearchEngine {
  readonly kind: 'builtin' | 'upstream'
  /** Results best first, each URL once, at most `query.count`. */
  search(query: SearchQuery): Promise<SearchResult[]>
}
