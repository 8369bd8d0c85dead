import type { RateLimitedApi } from '#config'
import {
  claimIdempotencyKey,
  releaseIdempotencyKey,
  storeIdempotentAnswer,
  type IdempotencyClaim,
  type StoredAnswer,
} from '../../domain/idempotency-keys'
import { errorFields, log } from '../../log'
import { keyOf, type Caller } from '../caller'

/** A claimed `Idempotency-Key`: its request's answer is stored (a 2xx) or the key let go (anything else). */
export interface HeldIdempotencyKey {
  store(answer: StoredAnswer): Promise<void>
  release(): Promise<void>
}

/**
 * Claims `idempotencyKey` for the caller's API key (keys are scoped per API key: two keys' same value never
 * meet), or answers its stored answer. Undefined when the call has no key (the reader without one): there is
 * nothing to scope the value to, so it is not read.
 */
export async function claimForCaller(
  caller: Caller,
  api: RateLimitedApi,
  idempotencyKey: string,
  requestHash: string,
): Promise<{ replay: StoredAnswer } | { held: HeldIdempotencyKey } | undefined> {
  if (caller.presentedKey === undefined) return undefined
  const { db, key } = await keyOf(caller, api)
  const target = { keyId: key.id, idempotencyKey }
  const claim: IdempotencyClaim = await claimIdempotencyKey(db, { ...target, requestHash })
  if ('replay' in claim) return claim
  const release = async () => {
    // A row that could not be removed is taken over once its claim is stale (domain/idempotency-keys.ts).
    await releaseIdempotencyKey(db, target, claim.claimed).catch((error: unknown) =>
      log('warn', 'idempotency key not released', { error: errorFields(error) }),
    )
  }
  return {
    held: {
      async store(answer) {
        try {
          await storeIdempotentAnswer(db, target, claim.claimed, answer)
        } catch (error) {
          // The caller still gets its answer; the key is let go, so a retry is answered (and charged) anew.
          log('error', 'idempotent answer not stored', { error: errorFields(error) })
          await release()
        }
      },
      release,
    },
  }
}
