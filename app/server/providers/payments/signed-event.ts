import type Stripe from 'stripe'
import * as v from 'valibot'
import { isStorableText } from '~/contracts/common'
import { PaymentEventMalformed, PaymentSignatureInvalid } from '../../domain/refusals'
import type { PaymentEvent } from './types'

/** How old a signature may be (Stripe's default tolerance). */
export const SIGNATURE_MAX_AGE_SECONDS = 300
/**
 * How far ahead of this clock a signature may be dated. Stripe's check only bounds the past, so a signature
 * dated tomorrow would stay replayable until the day after; a minute covers clocks that disagree.
 */
export const SIGNATURE_FUTURE_SKEW_SECONDS = 60

const plainObject = v.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'must be an object',
)

/** What every event must be before anything reads it: Stripe's `{id: "evt_…", type, data: {object}}`. */
const eventShape = v.object({
  id: v.pipe(v.string('must be a string'), v.regex(/^evt_\w{1,250}$/, 'must be an event id (evt_…)')),
  type: v.pipe(v.string('must be a string'), v.regex(/^[a-z_]+(\.[a-z_]+){1,5}$/, 'must be an event type')),
  data: v.object({ object: plainObject }, 'must be an object'),
})

/** Whether any string (value or field name) in `value` is one Postgres cannot store; walked without recursion. */
function hasUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value]
  while (pending.length) {
    const item = pending.pop()
    if (typeof item === 'string') {
      if (!isStorableText(item)) return true
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (!isStorableText(key)) return true
        pending.push(child)
      }
    }
  }
  return false
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** Refuses a signature dated beyond the allowed skew ahead of now (every `t=` of the header is looked at). */
function refuseFutureSignature(signature: string, now: number): void {
  const latest = Math.floor(now / 1000) + SIGNATURE_FUTURE_SKEW_SECONDS
  for (const item of signature.split(',')) {
    const [name, value] = item.split('=')
    if (name.trim() !== 't') continue
    const timestamp = Number(value)
    if (!Number.isSafeInteger(timestamp)) throw new PaymentSignatureInvalid('signature timestamp is not a number')
    if (timestamp > latest) throw new PaymentSignatureInvalid('signature dated in the future')
  }
}

/**
 * A webhook's event, believed only when its signature is right and dated within [now − 5 min, now + 60 s], and
 * acted on only when it has the shape of an event. A signed event of another shape is refused with
 * `PaymentEventMalformed`, naming the row it is recorded as failed under (its id when that is one, else a
 * hash of the body), so no handler ever meets a null object or an id the database cannot store.
 */
export async function readSignedEvent(
  webhooks: Stripe['webhooks'],
  cryptoProvider: Stripe.CryptoProvider,
  payload: string,
  signature: string | null,
  secret: string,
  now = Date.now(),
): Promise<PaymentEvent> {
  if (!signature) throw new PaymentSignatureInvalid('no Stripe-Signature header')
  refuseFutureSignature(signature, now)
  const verifier = webhooks.signature
  if (!verifier) throw new Error("the stripe package's signature helper is missing")
  try {
    await verifier.verifyHeaderAsync(payload, signature, secret, SIGNATURE_MAX_AGE_SECONDS, cryptoProvider, now)
  } catch (error) {
    throw new PaymentSignatureInvalid((error as Error).message, { cause: error })
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(payload)
  } catch {
    parsed = undefined
  }
  const shaped = v.safeParse(eventShape, parsed)
  if (shaped.success && !hasUnstorableText(parsed))
    return { id: shaped.output.id, type: shaped.output.type, object: shaped.output.data.object }
  const problem =
    parsed === undefined
      ? 'the body is not JSON'
      : shaped.success
        ? 'contains a character that cannot be stored (NUL or a lone surrogate)'
        : `${v.getDotPath(shaped.issues[0]) ?? 'event'} ${shaped.issues[0].message}`
  const claimed = (parsed ?? {}) as { id?: unknown; type?: unknown }
  const usable = (text: unknown, pattern: RegExp) =>
    typeof text === 'string' && pattern.test(text) && isStorableText(text) ? text : undefined
  throw new PaymentEventMalformed(problem, {
    id: usable(claimed.id, /^evt_\w{1,250}$/) ?? `malformed_${await sha256Hex(payload)}`,
    type: usable(claimed.type, /^[\w.]{1,100}$/) ?? 'malformed',
  })
}
