import { sql } from 'drizzle-orm'
import { boolean, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * People who signed in (spec §3 User), keyed by the identity service's uid. The profile is ours: the identity
 * service only proves who is calling, so what a user sets here follows them to every device.
 */
export const users = pgTable('users', {
  uid: text('uid').primaryKey(),
  email: text('email'),
  /** Whether the identity service had verified `email` at the last sign-in: only a verified address accepts an invitation. */
  emailVerified: boolean('email_verified').notNull().default(false),
  displayName: text('display_name'),
  photoUrl: text('photo_url'),
  /** Where balance alerts and job mail go when set; else the account's e-mail. */
  notificationEmail: text('notification_email'),
  /** language, darkMode and the other user settings (spec §3), as the dashboard last saved them. */
  preferences: jsonb('preferences').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * The server's own sign-in sessions: the cookie holds a random token, this row its SHA-256, so a session can
 * be revoked (sign-out, "sign out everywhere") without waiting for an ID token to expire. `confirmed_at` is when
 * the identity service last said the user exists and is enabled; past SESSION_CHECK_SECONDS it is asked again.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    uid: text('uid')
      .notNull()
      .references(() => users.uid, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the sign-in the session was opened from happened (the ID token's auth_time): a session that began
     * before the identity service revoked the user's tokens (validSince: a password change or reset) ends.
     * Null on sessions opened before this column (their created_at stands in).
     */
    signedInAt: timestamp('signed_in_at', { withTimezone: true }),
  },
  (t) => [
    index('sessions_uid_idx')
      .on(t.uid)
      .where(sql`${t.revokedAt} is null`),
  ],
)
