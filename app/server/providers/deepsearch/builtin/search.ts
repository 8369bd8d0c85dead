import { bm25Scores } from '../../inference/builtin/bm25'
import type { HostPreferences } from '../engine'
import { hostAllowed, hostBoost } from '../hosts'
import type { SitePage } from './site-index'

export interface SearchHit {
  page: SitePage
  score: number
}

/** Pages of the index that match the query, best first (BM25 over title and text, raised on favoured hosts). */
export function searchSite(pages: SitePage[], query: string, hosts: HostPreferences, limit: number): SearchHit[] {
  const allowed = pages.filter((page) => hostAllowed(page.url, hosts))
  const scores = bm25Scores(
    query,
    allowed.map((page) => page.searchText),
  )
  return allowed
    .map((page, i) => ({ page, score: scores[i] * hostBoost(page.url, hosts) }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
}
