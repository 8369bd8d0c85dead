import { createLocalJWKSet, type JSONWebKeySet } from 'jose'

/** Google's published keys for Firebase ID tokens (RS256). */
export const GOOGLE_KEYS_URL =
  'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com'

type KeySet = ReturnType<typeof createLocalJWKSet>

interface Cached {
  keys: KeySet
  kids: Set<string | undefined>
  fetchedAt: number
  expiresAt: number
}

/** Without a max-age, a copy stays good for an hour. */
const fallbackMaxAgeMs = 60 * 60 * 1000
/** A token naming a key the copy lacks fetches again, at most this often (a forged kid must not flood Google). */
const unknownKeyCooldownMs = 30 * 1000
const cache = new Map<string, Cached>()

/**
 * The key set at `url`, fetched again once its Cache-Control max-age has passed or when a token names a key
 * the copy lacks (Google has rotated). Only parsed keys are kept between requests, never a fetch in flight:
 * a Worker may not settle one request's promise with another request's I/O.
 */
export async function publishedKeys(url: string, kid: string | undefined, now = Date.now()): Promise<KeySet> {
  const cached = cache.get(url)
  const rotated = cached && !cached.kids.has(kid) && now - cached.fetchedAt > unknownKeyCooldownMs
  if (cached && cached.expiresAt > now && !rotated) return cached.keys
  const response = await fetch(url, { headers: { accept: 'application/json' } })
  if (!response.ok) throw new Error(`the signing keys could not be fetched: ${response.status}`)
  const set = (await response.json()) as JSONWebKeySet
  const maxAge = /max-age=(\d+)/.exec(response.headers.get('cache-control') ?? '')?.[1]
  const entry: Cached = {
    keys: createLocalJWKSet(set),
    kids: new Set(set.keys.map((key) => key.kid)),
    fetchedAt: now,
    expiresAt: now + (maxAge ? Number(maxAge) * 1000 : fallbackMaxAgeMs),
  }
  cache.set(url, entry)
  return entry.keys
}
