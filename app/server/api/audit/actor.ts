import type { AuditBy } from '../../domain/audit'
import { displayKey, type ApiKey } from '../../domain/keys'

/** What naming the actor reads and writes on a call (its `Caller`): kept structural so the caller can name its key's holder without a circle. */
interface Acting {
  actor?: string
  readonly address: string
  readonly requestId: string
}

/**
 * Names who this call acts as, for the audit rows its changes write. A signed-in user outranks the key they
 * hold; a key names itself only when nobody else was named.
 */
export function actingUser(caller: Acting, uid: string): void {
  caller.actor = `user:${uid}`
}

export function actingKey(caller: Acting, key: Pick<ApiKey, 'prefix' | 'last4'>): void {
  caller.actor ??= `key:${displayKey(key)}`
}

/** An Administration API call: its admin key, whose maker's role judges what it may change. */
export function actingAdminKey(caller: Acting, keyId: string): void {
  caller.actor = `admin_key:${keyId}`
}

/** A caller with no key or session yet (taking a trial key): named by its address alone. */
export function actingVisitor(caller: Acting): void {
  caller.actor ??= 'visitor'
}

/**
 * Who a change this call makes is by: the actor it established so far, from the client's address, in its
 * request. A call that established nobody (a webhook, a key not yet looked up) is `system`, with no address.
 */
export function auditBy(caller: Acting): AuditBy {
  return {
    actor: caller.actor ?? 'system',
    address: caller.actor === undefined ? null : caller.address,
    requestId: caller.requestId,
  }
}

/**
 * A change the payment service's facts make (a purchase credited, a card saved, a refund taken back): by
 * `payments`, in the call that carried the facts (a webhook, the buyer back on the success page), or in
 * none (the reconciler, the recharge worker).
 */
export function paymentsBy(caller?: Acting): AuditBy {
  return caller ? { ...auditBy(caller), actor: 'payments' } : { actor: 'payments', address: null, requestId: null }
}
