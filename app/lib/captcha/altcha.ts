import { solveChallenge as solveV2 } from 'altcha-lib'
import { deriveKey as pbkdf2 } from 'altcha-lib/algorithms/web/pbkdf2'
import { deriveKey as sha } from 'altcha-lib/algorithms/web/sha'
import type {
  AltchaChallengeV1 as CaptchaChallengeV1,
  AltchaChallengeV2 as CaptchaChallengeV2,
  CaptchaChallenge,
} from '~/contracts/keys'
import { fitsFastPath, pbkdf2Sha256 } from './pbkdf2-sha256'

type DeriveKey = typeof pbkdf2

const fastPbkdf2: DeriveKey = async (parameters, salt, password) =>
  parameters.algorithm === 'PBKDF2/SHA-256' && fitsFastPath(salt, password)
    ? { derivedKey: pbkdf2Sha256(password, salt, parameters.cost, parameters.keyLength ?? 32) }
    : pbkdf2(parameters, salt, password)

/** altcha-lib v1's default search space when the challenge does not name one. */
const defaultMaxNumber = 1_000_000

export function isCryptoSupported(): boolean {
  return typeof globalThis.crypto !== 'undefined' && typeof globalThis.crypto.subtle?.digest === 'function'
}

export const isV2 = (challenge: CaptchaChallenge): challenge is CaptchaChallengeV2 => 'parameters' in challenge
export const isV1 = (challenge: CaptchaChallenge): challenge is CaptchaChallengeV1 =>
  'challenge' in challenge && 'salt' in challenge

/** Milliseconds since the epoch after which the server refuses a solution, if the challenge says. */
export function challengeExpiry(challenge: CaptchaChallengeV1 | CaptchaChallengeV2): number | undefined {
  if (isV2(challenge)) return challenge.parameters.expiresAt ? challenge.parameters.expiresAt * 1000 : undefined
  // v1 carries `expires` (seconds) in the salt's query part.
  const query = challenge.salt.split('?')[1]
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

/** v1: n in [0, maxnumber] with hash(salt + n) === challenge; undefined when none does or when aborted. */
export async function solveV1(challenge: CaptchaChallengeV1, signal?: AbortSignal): Promise<number | undefined> {
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

/**
 * Solves either format and returns the form value the server's `verifySolution` reads: base64 of the
 * JSON solution (v1: the flat `{algorithm, challenge, number, salt, signature}`; v2: `{challenge, solution}`).
 */
export async function solveToPayload(
  challenge: CaptchaChallengeV1 | CaptchaChallengeV2,
  signal?: AbortSignal,
  /** v2 only: this solver tries start, start + step, …; several solvers split the search. */
  share: { start: number; step: number } = { start: 0, step: 1 },
): Promise<string | undefined> {
  const started = performance.now()
  if (isV2(challenge)) {
    const deriveKey = challenge.parameters.algorithm.startsWith('PBKDF2/') ? fastPbkdf2 : sha
    const controller = new AbortController()
    signal?.addEventListener('abort', () => controller.abort())
    const solution = await solveV2({
      challenge,
      deriveKey,
      controller,
      timeout: 0,
      counterStart: share.start,
      counterStep: share.step,
    })
    if (!solution) return undefined
    return encodeBase64({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })
  }
  const number = await solveV1(challenge, signal)
  if (number === undefined) return undefined
  const { algorithm, challenge: hash, salt, signature } = challenge
  return encodeBase64({
    algorithm,
    challenge: hash,
    number,
    salt,
    signature,
    took: Math.round(performance.now() - started),
  })
}

/** The JSON is ASCII (hex, numbers, algorithm names, URL-encoded salt parameters), so btoa is safe. */
function encodeBase64(value: unknown): string {
  return btoa(JSON.stringify(value))
}
