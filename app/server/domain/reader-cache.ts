import { and, eq, gt, lt, sql } from 'drizzle-orm'
import { readerCache } from '../db/schema'
import type { Db } from '../db/types'

/** Expired rows a write removes at most, so one write never turns into a long sweep. */
const SWEEP_BATCH = 100

/** A page converted within its time to live, or undefined. */
export async function cachedPage<T>(db: Db, key: string, minRemainingSeconds = 0): Promise<T | undefined> {
  const [row] = await db
    .select({ page: readerCache.page })
    .from(readerCache)
    .where(
      and(
        eq(readerCache.key, key),
        gt(readerCache.expiresAt, sql`now() + make_interval(secs => ${minRemainingSeconds})`),
      ),
    )
    .limit(1)
  return row?.page as T | undefined
}

/**
 * Keeps a converted page for `ttlSeconds`, replacing an older copy, and removes a batch of expired ones
 * (the cache cleans itself as it is used; nothing else has to sweep it).
 */
export async function cachePage(db: Db, entry: { key: string; url: string; page: unknown; ttlSeconds: number }) {
  const text = JSON.stringify(entry.page)
  const expiresAt = sql`now() + make_interval(secs => ${entry.ttlSeconds})`
  await db
    .insert(readerCache)
    .values({ key: entry.key, url: entry.url, page: entry.page, bytes: text.length, expiresAt })
    .onConflictDoUpdate({
      target: readerCache.key,
      set: { page: entry.page, bytes: text.length, fetchedAt: sql`now()`, expiresAt },
    })
  await db.delete(readerCache).where(
    sql`${readerCache.key} in (${db
      .select({ key: readerCache.key })
      .from(readerCache)
      .where(lt(readerCache.expiresAt, sql`now()`))
      .limit(SWEEP_BATCH)})`,
  )
}
