import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { createChallenge, randomInt, verifySolution } from 'altcha-lib'
import type { ChallengeParameters, Payload, Solution } from 'altcha-lib/types'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { lt, sql } from 'drizzle-orm'
import { captchaRedemptions } from '../../db/schema'
import type { Db } from '../../db/types'
import type { CaptchaProvider } from './types'

const EXPIRY_SECONDS = 10 * 60
const ALGORITHM = 'PBKDF2/SHA-256'
const COST = 200
/** altcha-lib's default, which `createChallenge` puts in every challenge. */
const KEY_LENGTH = 32

/**
 * Without CAPTCHA_SECRET each process signs with its own key, so a challenge verifies only where it was issued.
 * Made on first use: Workers refuse random values at module load (outside a request).
 */
let processSecret: string | undefined

/**
 * Self-hosted proof of work (ALTCHA v2, deterministic mode): the server knows the counter, signs the derived
 * key, and verifies in one key derivation. Each challenge names its action in its signed `data`, and is
 * refused by any other. Single use: the challenge nonce is recorded in the database on success, so a replay
 * fails on every instance until the challenge has expired anyway.
 */
export function altchaProvider(
  db: () => Promise<Db>,
  options: { secret?: string; difficulty: number },
): CaptchaProvider {
  const secret = options.secret ?? (processSecret ??= randomBytes(32).toString('hex'))
  const keySecret = createHmac('sha256', secret).update('altcha-key-signature').digest('hex')
  return {
    kind: 'altcha',
    challenge: (action) =>
      createChallenge({
        algorithm: ALGORITHM,
        cost: COST,
        counter: randomInt(Math.ceil(options.difficulty / 2), options.difficulty),
        data: { action },
        deriveKey,
        expiresAt: Math.floor(Date.now() / 1000) + EXPIRY_SECONDS,
        hmacSignatureSecret: secret,
        hmacKeySignatureSecret: keySecret,
      }),
    async verify(response, expected) {
      const payload = parsePayload(response)
      if (!payload) return false
      const { parameters } = payload.challenge
      // Only what this server issues: anything else is refused before any HMAC or key derivation.
      if (parameters.algorithm !== ALGORITHM || parameters.cost !== COST || parameters.keyLength !== KEY_LENGTH)
        return false
      if (parameters.data?.action !== expected.action) return false
      if (!(parameters.expiresAt! > Date.now() / 1000)) return false
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: secret,
        hmacKeySignatureSecret: keySecret,
      }).catch(() => null)
      // The key signature proves the derived key, not the counter it came with: derive it again from that.
      if (!result?.verified || !(await counterDerivesKey(parameters, payload.solution))) return false
      return redeem(await db(), parameters.nonce, parameters.expiresAt!)
    },
  }
}

async function counterDerivesKey(parameters: ChallengeParameters, solution: Solution): Promise<boolean> {
  const password = new Uint8Array(parameters.nonce.length / 2 + 4)
  password.set(Buffer.from(parameters.nonce, 'hex'))
  new DataView(password.buffer).setUint32(password.length - 4, solution.counter)
  const { derivedKey } = await deriveKey(parameters, Buffer.from(parameters.salt, 'hex'), password)
  const submitted = Buffer.from(solution.derivedKey, 'hex')
  return submitted.length === derivedKey.length && timingSafeEqual(submitted, derivedKey)
}

const hex = (value: unknown): value is string => typeof value === 'string' && /^(?:[\da-f]{2}){1,64}$/.test(value)

/** The payload the widget sends, with every part this provider reads of the type it reads it as. */
function parsePayload(response: string): Payload | undefined {
  try {
    const payload = JSON.parse(Buffer.from(response, 'base64').toString('utf8')) as Payload
    const parameters = payload?.challenge?.parameters
    const solution = payload?.solution
    const ok =
      hex(parameters?.nonce) &&
      hex(parameters.salt) &&
      typeof parameters.expiresAt === 'number' &&
      typeof payload.challenge.signature === 'string' &&
      typeof solution === 'object' &&
      solution !== null &&
      Number.isInteger(solution.counter) &&
      solution.counter >= 0 &&
      solution.counter <= 0xffffffff &&
      hex(solution.derivedKey)
    return ok ? payload : undefined
  } catch {
    return undefined
  }
}

async function redeem(db: Db, challengeId: string, expiresAtSeconds: number): Promise<boolean> {
  const rows = await db
    .insert(captchaRedemptions)
    .values({ challengeId, expiresAt: new Date(expiresAtSeconds * 1000) })
    .onConflictDoNothing()
    .returning({ id: captchaRedemptions.challengeId })
  if (Math.random() < 0.01) await db.delete(captchaRedemptions).where(lt(captchaRedemptions.expiresAt, sql`now()`))
  return rows.length === 1
}
