import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/** Contact-sales leads: stored first, then e-mailed to sales through the outbox. */
export const contactLeads = pgTable('contact_leads', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  company: text('company').notNull(),
  message: text('message').notNull(),
  locale: text('locale').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})
