import { EngineRefused } from '../../../domain/refusals'
import { errorFields, log } from '../../../log'
import { refusalFor } from './refusals'

export interface UpstreamConnection {
  /** The API's origin (and path prefix), without a trailing slash; requests go to `${baseUrl}/v1/...`. */
  baseUrl: string
  /** Our key with the upstream, sent as a Bearer token; the caller's key is never forwarded. */
  apiKey: string | undefined
  timeoutMs: number
  fetch: typeof fetch
}

/** POSTs `body` as JSON to `path` and answers the parsed JSON of a 2xx answer; anything else is `EngineRefused`. */
export function postJson(connection: UpstreamConnection, path: string, body: unknown): Promise<unknown> {
  return requestJson(connection, path, { method: 'POST', body: JSON.stringify(body) })
}

/** GETs `path` (with its query) and answers the parsed JSON of a 2xx answer; anything else is `EngineRefused`. */
export function getJson(connection: UpstreamConnection, path: string): Promise<unknown> {
  return requestJson(connection, path, { method: 'GET' })
}

async function requestJson(
  connection: UpstreamConnection,
  path: string,
  init: { method: 'GET' | 'POST'; body?: string },
): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (init.body !== undefined) headers['content-type'] = 'application/json'
  if (connection.apiKey) headers.authorization = `Bearer ${connection.apiKey}`
  // A query may hold the caller's words: the logs name the path only.
  const logged = path.split('?')[0] || '/'
  let answer: { status: number; headers: Headers; text: string }
  try {
    const response = await connection.fetch(`${connection.baseUrl}${path}`, {
      ...init,
      headers,
      // The timeout covers reading the answer too. A redirect is refused: our key goes to the configured host only.
      signal: AbortSignal.timeout(connection.timeoutMs),
      redirect: 'error',
    })
    answer = { status: response.status, headers: response.headers, text: await response.text() }
  } catch (error) {
    if (isTimeout(error)) throw new EngineRefused(504, 'Upstream API timed out')
    log('warn', 'upstream API unreachable', { path: logged, error: errorFields(error) })
    throw new EngineRefused(502, 'Upstream API unreachable')
  }
  if (answer.status < 200 || answer.status > 299) {
    const refusal = refusalFor(answer.status, answer.text, answer.headers)
    // The caller's own mistakes (422) are not ours to watch; credentials, balance and outages are.
    if (refusal.status !== 422) log('warn', 'upstream API refused', { path: logged, status: answer.status })
    throw refusal
  }
  try {
    return JSON.parse(answer.text)
  } catch {
    throw malformed(logged, 'not JSON')
  }
}

export function malformed(path: string, problem: string): EngineRefused {
  log('warn', 'upstream API answered malformed', { path, problem })
  return new EngineRefused(502, 'Upstream API answered malformed data')
}

function isTimeout(error: unknown): boolean {
  const named = (value: unknown) => value instanceof Error && value.name === 'TimeoutError'
  return named(error) || (error instanceof Error && named(error.cause))
}
