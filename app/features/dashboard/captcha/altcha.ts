import type { CaptchaChallenge } from '../api-types'

/** altcha-lib's default search space when the challenge does not name one. */
const defaultMaxNumber = 1_000_000

export function isCryptoSupported(): boolean {
  return typeof globalThis.crypto !== 'undefined' && typeof globalThis.crypto.subtle?.digest === 'function'
}

/** altcha-lib v1 puts `expires` (seconds since the epoch) in the salt's query part; milliseconds or undefined. */
export function challengeExpiry(salt: string): number | undefined {
  const query = salt.split('?')[1]
  if (!query) return undefined
  const params = new URLSearchParams(query)
  const seconds = Number.parseInt(params.get('expires') ?? params.get('expire') ?? '', 10)
  return Number.isFinite(seconds) ? seconds * 1000 : undefined
}

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Finds n in [0, maxnumber] with hash(salt + n) === challenge; undefined when none does (or when aborted). */
export async function solveChallenge(challenge: CaptchaChallenge, signal?: AbortSignal): Promise<number | undefined> {
  const target = hexToBytes(challenge.challenge.toLowerCase())
  const algorithm = challenge.algorithm.toUpperCase()
  const max = challenge.maxnumber ?? defaultMaxNumber
  const encoder = new TextEncoder()
  for (let n = 0; n <= max; n++) {
    if (signal?.aborted) return undefined
    const digest = new Uint8Array(await crypto.subtle.digest(algorithm, encoder.encode(challenge.salt + n)))
    if (sameBytes(digest, target)) return n
  }
  return undefined
}

/** The form value altcha-lib's `verifySolution` reads: base64 of the JSON solution. */
export function encodeSolution(challenge: CaptchaChallenge, number: number, took: number): string {
  const json = JSON.stringify({
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number,
    salt: challenge.salt,
    signature: challenge.signature,
    took,
  })
  // The JSON is ASCII (hex, digits and the salt's URL-encoded parameters), so btoa is safe.
  return btoa(json)
}
