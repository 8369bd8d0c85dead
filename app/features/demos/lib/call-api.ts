import * as v from 'valibot'
import { failureOf, type DemoFailure } from './failure'

export type DemoPath = '/v1/embeddings' | '/v1/rerank' | '/v1/segment' | '/v1/classify' | '/r' | '/v1/chat/completions'

/** What X-RateLimit-* said about the key's window after this call, when the answer carried them. */
export interface RateLimit {
  limit: number
  remaining: number
}

export interface DemoAnswer<T> {
  data: T
  rateLimit: RateLimit | undefined
}

/** Thrown by `callDemoApi`: the answer's failure, ready to show. */
export class DemoCallError extends Error {
  constructor(readonly failure: DemoFailure) {
    super(failure.message)
    this.name = 'DemoCallError'
  }
}

function rateLimitOf(headers: Headers): RateLimit | undefined {
  const limit = Number(headers.get('x-ratelimit-limit'))
  const remaining = Number(headers.get('x-ratelimit-remaining'))
  if (!headers.has('x-ratelimit-limit') || !Number.isFinite(limit) || !Number.isFinite(remaining)) return undefined
  return { limit, remaining }
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text()
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * POSTs `body` to the search API served by this site (same origin, so no CORS; the curl shown names
 * PUBLIC_API_BASE_URL) and checks the answer against its wire contract, so a malformed one is an error
 * the visitor sees rather than a blank chart.
 */
export async function callDemoApi<T>(
  path: DemoPath,
  body: unknown,
  apiKey: string | null,
  answer: v.GenericSchema<unknown, T>,
  { signal, origin = '' }: { signal?: AbortSignal; /** The page's own when empty. */ origin?: string } = {},
): Promise<DemoAnswer<T>> {
  let response: Response
  try {
    response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal,
    })
  } catch (error) {
    if (signal?.aborted) throw error
    throw new DemoCallError({
      kind: 'other',
      message: `0: ${error instanceof Error ? error.message : 'Network error'}`,
    })
  }
  const parsed = await bodyOf(response)
  if (!response.ok)
    throw new DemoCallError(failureOf(response.status, parsed, { retryAfter: response.headers.get('retry-after') }))
  const result = v.safeParse(answer, parsed)
  if (!result.success) {
    const issue = result.issues[0]
    const where = v.getDotPath(issue)
    throw new DemoCallError({
      kind: 'other',
      message: `${response.status}: unexpected answer (${where ? `${where}: ` : ''}${issue.message})`,
    })
  }
  return { data: result.output, rateLimit: rateLimitOf(response.headers) }
}
