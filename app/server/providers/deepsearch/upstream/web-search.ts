import { getJson, malformed, type UpstreamConnection } from '../../inference/upstream/client'

export interface WebResult {
  url: string
  title: string
  snippet: string
  publishedTime?: string
}

/** A SearXNG-style JSON search (`?q=…&format=json`, answering `{results: [{url, title, content}]}`). */
export async function webSearch(connection: UpstreamConnection, query: string): Promise<WebResult[]> {
  const answer = (await getJson(connection, `?${new URLSearchParams({ q: query, format: 'json' })}`)) as {
    results?: unknown
  }
  if (!Array.isArray(answer.results)) throw malformed('search', 'no results list')
  return answer.results.flatMap((item) => {
    const result = item as Record<string, unknown>
    if (typeof result.url !== 'string' || !/^https?:\/\//i.test(result.url)) return []
    return [
      {
        url: result.url,
        title: typeof result.title === 'string' ? result.title : result.url,
        snippet: typeof result.content === 'string' ? result.content : '',
        publishedTime: typeof result.publishedDate === 'string' ? result.publishedDate : undefined,
      },
    ]
  })
}
