import { sql } from 'drizzle-orm'
import { bigint, boolean, check, index, pgTable, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * API keys. Only the SHA-256 hash of a key is stored; `prefix` and `last4` let a holder recognise it.
 * `balance` is a cache of the sum of the key's ledger entries, kept in the same transaction as each entry.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyHash: text('key_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    last4: text('last4').notNull(),
    /** The account (users.uid) the key belongs to; null for an anonymous trial key. */
    ownerId: text('owner_id'),
    /** The holder's label for it, shown in the account's key list. */
    name: text('name'),
    /**
     * An account's key, sealed with AES-GCM under KEY_ENCRYPTION_SECRET, so its owner can use it on another
     * device; anonymous keys have none (only their hash is kept).
     */
    keyCiphertext: text('key_ciphertext'),
    email: text('email'),
    speedLevel: smallint('speed_level').notNull().default(1),
    autoRecharge: boolean('auto_recharge').notNull().default(false),
    /** While auto-recharge is on: a debit taking the balance below this starts one recharge (ledger_apply). */
    autoRechargeThreshold: bigint('auto_recharge_threshold', { mode: 'number' }),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    check('api_keys_balance_non_negative', sql`${t.balance} >= 0`),
    check(
      'api_keys_auto_recharge_threshold',
      sql`(${t.autoRecharge} and ${t.autoRechargeThreshold} > 0) or (not ${t.autoRecharge} and ${t.autoRechargeThreshold} is null)`,
    ),
    index('api_keys_owner_idx').on(t.ownerId),
  ],
)
