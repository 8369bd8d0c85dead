import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  date,
  index,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core'
import { organisations, projects } from './organisations'

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
    /*
     * Per-key controls (an account key's owner sets them; README "Per-key controls"). Null means no limit.
     * They live on the key row so the one lookup a request makes already carries them, and ledger_apply,
     * holding the row's lock, enforces caps, scopes and expiry on every debit.
     */
    /** The most tokens the key may consume per UTC day / calendar month (UTC). */
    dailyCap: bigint('daily_cap', { mode: 'number' }),
    monthlyCap: bigint('monthly_cap', { mode: 'number' }),
    /** Products (ledger product names) and model API ids the key may be charged for; null: all. */
    allowedProducts: text('allowed_products').array(),
    allowedModels: text('allowed_models').array(),
    /** From this moment the key is refused everywhere it would spend. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** CIDR ranges (IPv4 and IPv6, normalised) the key may be used from; null: anywhere. */
    allowedNetworks: text('allowed_networks').array(),
    /** Consumption net of give-backs in the UTC day / month named beside it, kept by ledger_apply. */
    spentDay: bigint('spent_day', { mode: 'number' }).notNull().default(0),
    spentDayOf: date('spent_day_of'),
    spentMonth: bigint('spent_month', { mode: 'number' }).notNull().default(0),
    spentMonthOf: date('spent_month_of'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The organisation the key is in (null: an anonymous key, or one made before organisations). */
    organisationId: uuid('organisation_id').references(() => organisations.id),
    projectId: uuid('project_id').references(() => projects.id),
    /**
     * The row whose balance this key spends: its organisation's shared balance (organisations.balance_key_id),
     * fixed when the key is made; null: its own `balance`. ledger_apply_v3 moves that row's balance for every
     * entry of this key, under both rows' locks (README "Organisations").
     */
    balanceKeyId: uuid('balance_key_id').references((): AnyPgColumn => apiKeys.id),
  },
  (t) => [
    check('api_keys_balance_non_negative', sql`${t.balance} >= 0`),
    check(
      'api_keys_auto_recharge_threshold',
      sql`(${t.autoRecharge} and ${t.autoRechargeThreshold} > 0) or (not ${t.autoRecharge} and ${t.autoRechargeThreshold} is null)`,
    ),
    check('api_keys_caps_positive', sql`${t.dailyCap} > 0 and ${t.monthlyCap} > 0`),
    check('api_keys_spent_non_negative', sql`${t.spentDay} >= 0 and ${t.spentMonth} >= 0`),
    index('api_keys_owner_idx').on(t.ownerId),
    index('api_keys_organisation_idx')
      .on(t.organisationId)
      .where(sql`${t.organisationId} is not null`),
  ],
)
