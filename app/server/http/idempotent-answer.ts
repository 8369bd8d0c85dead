import type { RateLimitedApi } from '#config'
import type { Caller } from '../api/caller'
import { claimForCaller } from '../api/idempotency/claim'
import { InvalidInput } from '../domain/refusals'
import { bodyLimitFor, readLimited } from './body-limit'

/** The header (the IETF draft's, Stripe's name) and the answer header a replay carries. */
export const IDEMPOTENCY_HEADER = 'idempotency-key'
export const REPLAYED_HEADER = 'Idempotent-Replayed'
const MAX_KEY_LENGTH = 255

/** A call's `Idempotency-Key`, claimed: a replay to answer with, or what to do with the answer once computed. */
export interface IdempotentCall {
  replay?: Response
  /** The answer as the caller gets it: a 2xx JSON or text answer stored (and read back), anything else let go. */
  settle(response: Response): Promise<Response>
  release(): Promise<void>
}

/**
 * The header's value: a bare string (Stripe's clients) or the draft's quoted structured-field string, of 1 to
 * 255 visible ASCII characters; anything else is refused with 422 naming the header.
 */
function keyOfHeader(value: string): string {
  const trimmed = value.trim()
  const unquoted = /^"(.*)"$/.exec(trimmed)?.[1] ?? trimmed
  if (unquoted.length === 0 || unquoted.length > MAX_KEY_LENGTH || !/^[\x20-\x7e]+$/.test(unquoted))
    throw new InvalidInput([
      {
        loc: ['header', IDEMPOTENCY_HEADER],
        msg: `must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters`,
        type: 'invalid_value',
      },
    ])
  return unquoted
}

/**
 * What "the same request" means for a key: the method, the path with its query, the headers the endpoint reads
 * as options (with the media types sent and asked for) and the body's bytes, hashed (SHA-256).
 */
async function requestHashOf(request: Request, optionHeaders: string[]): Promise<string> {
  const url = new URL(request.url)
  const names = ['content-type', 'accept', ...optionHeaders].sort()
  const head = [
    request.method,
    url.pathname + url.search,
    ...names.map((name) => `${name}:${request.headers.get(name) ?? ''}`),
  ].join('\n')
  const body = await readLimited(request.clone(), bodyLimitFor(url.pathname).bytes)
  const bytes = new TextEncoder().encode(`${head}\n\n`)
  const all = new Uint8Array(bytes.byteLength + body.byteLength)
  all.set(bytes)
  all.set(body, bytes.byteLength)
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', all))
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** Headers a replay does not repeat: the rate state is the replaying call's own, and lengths are recomputed. */
const notStored = (name: string) =>
  name.startsWith('x-ratelimit-') || ['content-length', 'retry-after', 'set-cookie', 'date'].includes(name)

/** Answers whose body is stored: JSON and text (an event stream is not; it is let go as it starts). */
const storable = (response: Response) =>
  response.status >= 200 &&
  response.status < 300 &&
  /^(application\/json|text\/(?!event-stream))/.test(response.headers.get('content-type') ?? '')

/**
 * Reads the call's `Idempotency-Key` on an endpoint that honours it: undefined without the header (or without
 * an API key to scope it to); else the claim, or the stored answer replayed with `Idempotent-Replayed: true`.
 * Refused: the same key for another request (422), or while its first request runs (409).
 */
export async function idempotencyOf(
  request: Request,
  caller: Caller,
  api: RateLimitedApi,
  optionHeaders: string[],
): Promise<IdempotentCall | undefined> {
  const header = request.headers.get(IDEMPOTENCY_HEADER)
  if (header === null || request.method !== 'POST') return undefined
  const key = keyOfHeader(header)
  const claimed = await claimForCaller(caller, api, key, await requestHashOf(request, optionHeaders))
  if (!claimed) return undefined
  if ('replay' in claimed) {
    const { status, body, headers } = claimed.replay
    return {
      replay: new Response(body, { status, headers: { ...headers, [REPLAYED_HEADER]: 'true' } }),
      settle: async (response) => response,
      release: async () => undefined,
    }
  }
  const { held } = claimed
  return {
    async settle(response) {
      if (!storable(response)) {
        await held.release()
        return response
      }
      const body = await response.text()
      const headers: Record<string, string> = {}
      response.headers.forEach((value, name) => {
        if (!notStored(name)) headers[name] = value
      })
      await held.store({ status: response.status, body, headers })
      return new Response(body, { status: response.status, headers: response.headers })
    },
    release: held.release,
  }
}
