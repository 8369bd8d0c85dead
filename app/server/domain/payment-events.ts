import { eq, sql } from 'drizzle-orm'
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
