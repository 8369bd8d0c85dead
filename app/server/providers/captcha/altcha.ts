import { createHmac, randomBytes } from 'node:crypto'
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { lt, sql } from 'drizzle-orm'
import { captchaRedemptions } from '../../db/schema'
import type { Db } from '../../db/types'
import type { CaptchaProvider } from './types'

const EXPIRY_SECONDS = 10 * 60
const ALGORITHM = 'PBKDF2/SHA-256'
const COST = 200

/** Without CAPTCHA_SECRET each process signs with its own key, so a challenge verifies only where it was issued. */
const processSecret = randomBytes(32).toString('hex')

/**
 * Self-hosted proof of work (ALTCHA v2, deterministic mode): the server knows the counter, signs the derived
 * key, and verifies in one key derivation. Single use: the challenge nonce is recorded in the database on
 * success, so a replay fails on every instance until the challenge has expired anyway.
 */
export function altchaProvider(
  db: () => Promise<Db>,
  options: { secret?: string; difficulty: number },
): CaptchaProvider {
  const secret = options.secret ?? processSecret
  const keySecret = createHmac('sha256', secret).update('altcha-key-signature').digest('hex')
  return {
    kind: 'altcha',
    challenge: () =>
      createChallenge({
        algorithm: ALGORITHM,
        cost: COST,
        counter: randomInt(Math.ceil(options.difficulty / 2), options.difficulty),
        deriveKey,
        expiresAt: Math.floor(Date.now() / 1000) + EXPIRY_SECONDS,
        hmacSignatureSecret: secret,
        hmacKeySignatureSecret: keySecret,
      }),
    async verify(response) {
      const payload = parsePayload(response)
      if (!payload) return false
      const result = await verifySolution({
        challenge: payload.challenge as Challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: secret,
        hmacKeySignatureSecret: keySecret,
      }).catch(() => null)
      if (!result?.verified || !payload.challenge.parameters.expiresAt) return false
      return redeem(await db(), payload.challenge.parameters.nonce, payload.challenge.parameters.expiresAt)
    },
  }
}

function parsePayload(response: string): Payload | undefined {
  try {
    const payload = JSON.parse(Buffer.from(response, 'base64').toString('utf8')) as Payload
    const ok =
      typeof payload?.challenge?.parameters?.nonce === 'string' &&
      typeof payload.challenge.signature === 'string' &&
      typeof payload.solution === 'object' &&
      payload.solution !== null
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
