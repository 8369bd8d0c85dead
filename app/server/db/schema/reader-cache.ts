import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Pages the reader converted, kept for `READER_CACHE_TTL_SECONDS` so a page read again within that time is
 * answered without fetching it again (`X-No-Cache: true` skips it). Keyed by a hash of the URL and every
 * option that changes the conversion; shared by all callers, since it holds only what a public URL serves.
 */
export const readerCache = pgTable(
  'reader_cache',
  {
    key: text('key').primaryKey(),
    url: text('url').notNull(),
    page: jsonb('page').notNull(),
    /** Size of `page` as stored, so an operator can see what the cache holds. */
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('reader_cache_expires_idx').on(t.expiresAt)],
)
