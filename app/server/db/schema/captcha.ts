import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** Solved captcha challenges, kept until they expire so a replay fails on every instance. */
export const captchaRedemptions = pgTable(
  'captcha_redemptions',
  {
    challengeId: text('challenge_id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('captcha_redemptions_expires_idx').on(t.expiresAt)],
)
