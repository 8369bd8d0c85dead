import { sql } from 'drizzle-orm'
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { apiKeys } from './keys'

/**
 * Every purchase of a token pack, from checkout or auto-recharge: what was bought, for which key, and how it
 * stands. The key a purchase credits is this row's, written when the checkout was created: nothing in a
 * payment event can redirect it. The tokens land in the ledger as the entry `purchase:<business id>`.
 */
export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    kind: text('kind', { enum: ['checkout', 'auto_recharge'] }).notNull(),
    checkoutSessionId: text('checkout_session_id').unique(),
    paymentIntentId: text('payment_intent_id').unique(),
    priceId: text('price_id').notNull(),
    tokens: bigint('tokens', { mode: 'number' }).notNull(),
    /** In the currency's minor units (cents). */
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['pending', 'paid', 'failed', 'expired'] })
      .notNull()
      .default('pending'),
    /** A checkout that also turns auto-recharge on when paid: the threshold it asked for. */
    rechargeThreshold: bigint('recharge_threshold', { mode: 'number' }),
    email: text('email'),
    receiptUrl: text('receipt_url'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    /** Tokens taken back by refunds and disputes (at most `tokens`). */
    reversedTokens: bigint('reversed_tokens', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    index('purchases_key_idx').on(t.keyId, t.createdAt),
    // The payment reconciler's pass: the few purchases still waiting for their payment.
    index('purchases_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    check('purchases_reversed', sql`${t.reversedTokens} between 0 and ${t.tokens}`),
  ],
)

/**
 * Payment events received (Stripe's, or the sandbox's in the same shape). `processed_at` is set only after
 * what the event does has committed, so a retry after a crash is processed again, and its effect, keyed by
 * the business id (session, payment intent, charge), lands once. A signed event that is malformed is
 * recorded with `failed_at` and its `failure` instead: refused, never left pending.
 */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
  failedAt: timestamp('failed_at', { withTimezone: true }),
  failure: text('failure'),
})

/** A key's payment details for auto-recharge: the customer and the card saved at checkout, and the pack to buy. */
export const billingProfiles = pgTable('billing_profiles', {
  keyId: uuid('key_id')
    .primaryKey()
    .references(() => apiKeys.id),
  provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
  customerId: text('customer_id'),
  paymentMethodId: text('payment_method_id'),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  /** The address given when the card was saved on its own (no purchase made the key paid yet): mail about its charges goes there. */
  email: text('email'),
  rechargePriceId: text('recharge_price_id'),
  /** Why auto-recharge was last turned off by the system (a decline), shown until it is turned on again. */
  disabledReason: text('disabled_reason'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * Auto-recharge attempts. A debit that takes the balance below the threshold inserts one (ledger_apply);
 * the partial unique index lets at most one be open per key however many debits cross at once. A worker
 * claims it (`charging`, with `next_try_at` as its lease), charges the saved card with the attempt id as
 * idempotency key, and the tokens are credited only by the payment's webhook.
 */
export const autoRechargeAttempts = pgTable(
  'auto_recharge_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id),
    status: text('status', { enum: ['pending', 'charging', 'succeeded', 'failed', 'skipped'] })
      .notNull()
      .default('pending'),
    priceId: text('price_id'),
    /** The purchase this attempt charges for, made before the charge so its webhook finds it. */
    purchaseId: uuid('purchase_id').references(() => purchases.id),
    paymentIntentId: text('payment_intent_id').unique(),
    failure: text('failure'),
    tries: integer('tries').notNull().default(0),
    nextTryAt: timestamp('next_try_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('auto_recharge_attempts_open_idx')
      .on(t.keyId)
      .where(sql`status in ('pending', 'charging')`),
    index('auto_recharge_attempts_due_idx')
      .on(t.nextTryAt)
      .where(sql`status in ('pending', 'charging')`),
    index('auto_recharge_attempts_key_idx').on(t.keyId, t.createdAt),
  ],
)

/**
 * Tokens a refund or dispute took back that the key holding the purchase's tokens no longer had (it had
 * spent them): recorded as owed instead of driving the balance below zero, and paid from the key's next
 * credits (a purchase, a transfer in) as they come. A transfer carries its sender's open debts to the
 * receiver with the balance (`key_id` is the key that owes now). Changed only under the key row's lock.
 */
export const billingDebts = pgTable(
  'billing_debts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id),
    tokens: bigint('tokens', { mode: 'number' }).notNull(),
    /** Paid so far; the debt is settled (`settled_at`) when it reaches `tokens`. */
    settledTokens: bigint('settled_tokens', { mode: 'number' }).notNull().default(0),
    reason: text('reason').notNull(),
    externalRef: text('external_ref').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    check('billing_debts_settled', sql`${t.settledTokens} between 0 and ${t.tokens}`),
    index('billing_debts_open_idx')
      .on(t.keyId, t.createdAt)
      .where(sql`settled_at is null`),
  ],
)

/** The sandbox provider's own objects (checkout sessions, payment intents, customers), as Stripe would keep them. */
export const sandboxObjects = pgTable('sandbox_objects', {
  id: text('id').primaryKey(),
  kind: text('kind').notNull(),
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * A checkout in setup mode: a card saved without a purchase, for auto-recharge. The row fixes the key (and
 * the threshold and pack to turn on) before the visitor sees the payment page; the session's completion or
 * its setup intent's success saves the card once, under this row's lock, whichever arrives first.
 */
export const cardSetups = pgTable(
  'card_setups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id),
    provider: text('provider', { enum: ['stripe', 'sandbox'] }).notNull(),
    checkoutSessionId: text('checkout_session_id').unique(),
    status: text('status', { enum: ['pending', 'saved', 'expired'] })
      .notNull()
      .default('pending'),
    /** Auto-recharge to turn on once the card is saved: the pack and the threshold. */
    priceId: text('price_id').notNull(),
    threshold: bigint('threshold', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    savedAt: timestamp('saved_at', { withTimezone: true }),
  },
  (t) => [
    // The payment reconciler's pass, as for purchases.
    index('card_setups_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
)

/** The name, address and tax id an account (or a browser's key) wants on its invoices. */
export const billingDetails = pgTable('billing_details', {
  keyId: uuid('key_id')
    .primaryKey()
    .references(() => apiKeys.id),
  name: text('name').notNull(),
  address: text('address').notNull(),
  taxId: text('tax_id'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * The one counter invoice numbers come from (a single row). It is raised in the transaction that credits a
 * purchase, so a rolled-back credit gives its number back with it and the numbers have no gaps; the row's
 * lock makes concurrent credits take consecutive numbers. A Postgres sequence would leave gaps on rollback.
 */
export const invoiceCounter = pgTable(
  'invoice_counter',
  {
    id: integer('id').primaryKey().default(1),
    lastNumber: bigint('last_number', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('invoice_counter_single', sql`${t.id} = 1`)],
)

/**
 * An invoice for a paid purchase, numbered when the purchase is credited. Its billing details are copied
 * from the key's when it is first downloaded, then fixed: a document once issued does not change.
 */
export const invoices = pgTable('invoices', {
  number: bigint('number', { mode: 'number' }).primaryKey(),
  purchaseId: uuid('purchase_id')
    .notNull()
    .unique()
    .references(() => purchases.id),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  billingName: text('billing_name'),
  billingAddress: text('billing_address'),
  billingTaxId: text('billing_tax_id'),
  detailsFixedAt: timestamp('details_fixed_at', { withTimezone: true }),
})
