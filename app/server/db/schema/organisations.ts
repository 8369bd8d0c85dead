import { sql } from 'drizzle-orm'
import { boolean, check, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { organisationRoles } from '../../../contracts/organisations'
import { users } from './accounts'

// Relative, not `~/`: drizzle-kit reads these files without the app's path aliases.
export { organisationRoles, type OrganisationRole } from '../../../contracts/organisations'

/**
 * A team that holds keys, projects and (unless personal) one shared balance. Every account has exactly one
 * personal organisation (`personal`, `created_by` its owner: the partial unique index keeps it to one), whose
 * keys keep their own balances as before; an organisation made by hand shares `balance_key_id`'s balance
 * among its keys (README "Organisations").
 */
export const organisations = pgTable(
  'organisations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    personal: boolean('personal').notNull().default(false),
    /** The account that made it (for a personal one: whose it is). */
    createdBy: text('created_by').references(() => users.uid),
    /**
     * The ledger account of the shared balance: an `api_keys` row no plaintext hashes to, holding the
     * balance, its purchases, card and auto-recharge, as a key's own would. Null for a personal organisation.
     * (No foreign key in drizzle's schema: api_keys references this table, and the schema files import no circle.)
     */
    balanceKeyId: uuid('balance_key_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Deleted by an owner: gone from every list, its keys revoked; its history stays. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('organisations_personal_idx')
      .on(t.createdBy)
      .where(sql`${t.personal}`),
    check('organisations_personal_balance', sql`not (${t.personal} and ${t.balanceKeyId} is not null)`),
  ],
)

/** Who is in an organisation, with which role (`can(role, action)` in domain/organisation-roles.ts decides what each may do). */
export const memberships = pgTable(
  'memberships',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id),
    uid: text('uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    role: text('role', { enum: organisationRoles }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organisationId, t.uid] }),
    index('memberships_uid_idx').on(t.uid),
    check('memberships_role', sql`${t.role} in ('owner', 'admin', 'developer', 'billing', 'viewer')`),
  ],
)

/**
 * An invitation by e-mail: the mail carries a random token, this row its SHA-256. Accepted once, by a signed-in
 * account whose verified e-mail is `email`, before `expires_at` and unless revoked.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id),
    email: text('email').notNull(),
    role: text('role', { enum: organisationRoles }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').references(() => users.uid),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by').references(() => users.uid),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('invitations_organisation_idx').on(t.organisationId, t.createdAt),
    check('invitations_role', sql`${t.role} in ('owner', 'admin', 'developer', 'billing', 'viewer')`),
  ],
)

/** Groups an organisation's keys; archived rather than deleted, since keys and their history name it. */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
  },
  (t) => [index('projects_organisation_idx').on(t.organisationId, t.createdAt)],
)
