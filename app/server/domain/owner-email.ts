import { eq, sql } from 'drizzle-orm'
import { apiKeys, users } from '../db/schema'
import type { Db, Tx } from '../db/types'

/**
 * Where mail about a key goes when the caller named no address: the key's own e-mail (a paid key has one),
 * else its account's notification address, else the account's e-mail. The one place that decides it, so
 * every notice (bulk jobs, payments, alerts) reaches the same person.
 */
export async function ownerEmailOf(db: Db | Tx, keyId: string): Promise<string | null> {
  const [row] = await db
    .select({ email: sql<string | null>`coalesce(${apiKeys.email}, ${users.notificationEmail}, ${users.email})` })
    .from(apiKeys)
    .leftJoin(users, eq(users.uid, apiKeys.ownerId))
    .where(eq(apiKeys.id, keyId))
  return row?.email ?? null
}
