import { displayKey, type ApiKey } from '../../domain/keys'
import { currentRequest } from '../../request-context'
import { clientAddress } from '../client-address'

/**
 * Names who this request acts as, and from where, for the audit rows its changes write. A signed-in user
 * outranks the key they hold; a key names itself only when nobody else was named.
 */
export function actingUser(request: Request, uid: string): void {
  const context = currentRequest()
  if (!context) return
  context.actor = `user:${uid}`
  context.clientAddress ??= clientAddress(request)
}

export function actingKey(request: Request, key: Pick<ApiKey, 'prefix' | 'last4'>): void {
  const context = currentRequest()
  if (!context) return
  context.actor ??= `key:${displayKey(key)}`
  context.clientAddress ??= clientAddress(request)
}

/** A caller with no key or session yet (taking a trial key): named by its address alone. */
export function actingVisitor(request: Request): void {
  const context = currentRequest()
  if (!context) return
  context.clientAddress ??= clientAddress(request)
  context.actor ??= 'visitor'
}
