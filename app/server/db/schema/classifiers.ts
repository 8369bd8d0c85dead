import { sql } from 'drizzle-orm'
import { check, customType, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { apiKeys } from './keys'

const bytes = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' })

/**
 * Trained classifiers (`/v1/train`). A classifier belongs to the key that trained it; a public one may be
 * used by any key but changed or deleted only by its owner. `weights` is the learned model in the binary
 * format of `app/server/providers/inference/classifier-model.ts`; `engine_model` names the embedding model it was
 * trained on, since its weights mean nothing on another one.
 */
export const classifiers = pgTable(
  'classifiers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id),
    /** What its owner calls it (nullable: classifiers trained before names were kept on the server have none). */
    name: text('name'),
    modelName: text('model_name').notNull(),
    engineModel: text('engine_model').notNull(),
    access: text('access', { enum: ['public', 'private'] }).notNull(),
    labels: jsonb('labels').$type<string[]>().notNull(),
    weights: bytes('weights').notNull(),
    updatedNumber: integer('updated_number').notNull().default(1),
    usedNumber: integer('used_number').notNull().default(0),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    index('classifiers_key_idx').on(t.keyId, t.createdAt),
    check('classifiers_access', sql`${t.access} in ('public', 'private')`),
  ],
)
