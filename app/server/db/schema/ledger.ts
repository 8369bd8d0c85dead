import { sql } from 'drizzle-orm'
import { bigint, bigserial, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { ledgerEntryTypes } from '../../../contracts/ledger'
import { apiKeys } from './keys'

// Relative, not `~/`: drizzle-kit reads these files without the app's path aliases.
export { ledgerEntryTypes, type LedgerEntryType } from '../../../contracts/ledger'

/**
 * The token ledger. Rows are immutable (a trigger rejects UPDATE and DELETE); `external_ref` names the
 * event that caused the entry (usage event, transfer, payment), so each event lands at most once.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id),
    type: text('type', { enum: ledgerEntryTypes }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
    externalRef: text('external_ref').notNull().unique(),
    product: text('product'),
    model: text('model'),
    counterpartyKeyId: uuid('counterparty_key_id'),
    /**
     * The row whose balance the entry moved when it is not `key_id`'s own: the organisation's shared balance a
     * key draws on. `balance_after` is that balance; a balance is the sum of the entries naming it here or,
     * when this is null, in `key_id`.
     */
    balanceKeyId: uuid('balance_key_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('ledger_entries_amount_non_zero', sql`${t.amount} <> 0`),
    check('ledger_entries_balance_after_non_negative', sql`${t.balanceAfter} >= 0`),
    check(
      'ledger_entries_type_sign',
      sql`(${t.type} in ('trial', 'purchase', 'transfer_in') and ${t.amount} > 0)
        or (${t.type} in ('consume', 'transfer_out', 'refund') and ${t.amount} < 0)
        or ${t.type} = 'adjustment'`,
    ),
    index('ledger_entries_key_idx').on(t.keyId, t.id),
    index('ledger_entries_balance_key_idx')
      .on(t.balanceKeyId, t.id)
      .where(sql`${t.balanceKeyId} is not null`),
    index('ledger_entries_consumption_idx')
      .on(t.keyId, t.createdAt)
      .where(sql`type = 'consume'`),
  ],
)
