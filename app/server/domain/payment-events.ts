import { eq, isNull, sql } from 'drizzle-orm'
import { paymentEvents } from '../db/schema'
import type { Db } from '../db/types'

/** Records a received event; false when it was already processed (a redelivery: nothing to do). */
export async function recordPaymentEvent(db: Db, event: { id: string; type: string }): Promise<boolean> {
  await db.insert(paymentEvents).values({ id: event.id, type: event.type }).onConflictDoNothing()
  const [row] = await db
    .select({ processedAt: paymentEvents.processedAt })
    .from(paymentEvents)
    .where(eq(paymentEvents.id, event.id))
  return !row?.processedAt
}

/** Only after what the event does has committed: a crash before leaves it to be processed again. */
export async function markPaymentEventProcessed(db: Db, id: string): Promise<void> {
  await db
    .update(paymentEvents)
    .set({ processedAt: sql`now()` })
    .where(eq(paymentEvents.id, id))
}

/**
 * A signed event that cannot be acted on: recorded as failed with what was wrong, so it is told apart from one
 * still waiting to be processed. An event already processed under that id keeps its record.
 */
export async function recordFailedPaymentEvent(
  db: Db,
  event: { id: string; type: string; failure: string },
): Promise<void> {
  const failure = event.failure.slice(0, 500)
  await db
    .insert(paymentEvents)
    .values({ id: event.id, type: event.type, failedAt: sql`now()`, failure })
    .onConflictDoUpdate({
      target: paymentEvents.id,
      set: { failedAt: sql`now()`, failure },
      setWhere: isNull(paymentEvents.processedAt),
    })
}
