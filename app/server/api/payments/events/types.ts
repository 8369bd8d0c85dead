import type { Db } from '../../../db/types'
import type { AuditBy } from '../../../domain/audit'
import type { PaymentEvent, PaymentProvider } from '../../../providers/payments/types'

export interface EventContext {
  db: Db
  /** Who the event's changes are by: `payments`, in the delivery's request if it came in one. */
  by: AuditBy
  provider: PaymentProvider
  event: PaymentEvent
}

export type EventHandler = (context: EventContext) => Promise<void>

/** A field of an event's object, as a string (ids, statuses), or undefined. */
export const text = (object: Record<string, unknown>, field: string): string | undefined => {
  const value = object[field]
  if (typeof value === 'string') return value
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string')
    return (value as { id: string }).id
  return undefined
}

export const whole = (object: Record<string, unknown>, field: string): number =>
  Number.isSafeInteger(object[field]) ? (object[field] as number) : 0

export const metadataOf = (object: Record<string, unknown>): Record<string, string> =>
  (object.metadata && typeof object.metadata === 'object' ? object.metadata : {}) as Record<string, string>
