import { and, desc, eq, or, sql } from 'drizzle-orm'
import { searchLimits, type ClassifierItem } from '~/contracts/search'
import { classifiers } from '../db/schema'
import type { Db } from '../db/types'
import { ClassifierChanged, ClassifierNotFound, InvalidInput } from './refusals'

export type ClassifierRow = typeof classifiers.$inferSelect

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)

/** A classifier this key may use: its own, or another key's public one. Anything else reads as not found. */
export async function usableClassifier(db: Db, id: string, keyId: string): Promise<ClassifierRow> {
  if (!isUuid(id)) throw new ClassifierNotFound()
  const [row] = await db
    .select()
    .from(classifiers)
    .where(and(eq(classifiers.id, id), or(eq(classifiers.keyId, keyId), eq(classifiers.access, 'public'))))
  if (!row) throw new ClassifierNotFound()
  return row
}

/** A classifier this key owns (to train further or delete); another key's, public or not, reads as not found. */
export async function ownClassifier(db: Db, id: string, keyId: string): Promise<ClassifierRow> {
  if (!isUuid(id)) throw new ClassifierNotFound()
  const [row] = await db
    .select()
    .from(classifiers)
    .where(and(eq(classifiers.id, id), eq(classifiers.keyId, keyId)))
  if (!row) throw new ClassifierNotFound()
  return row
}

export interface NewClassifier {
  keyId: string
  name?: string | null
  modelName: string
  engineModel: string
  access: 'public' | 'private'
  labels: string[]
  weights: Uint8Array
}

const tooManyClassifiers = () =>
  new InvalidInput([
    {
      loc: ['body', 'model'],
      msg: `this key already has ${searchLimits.maxClassifiersPerKey} classifiers, the limit per key: delete one first`,
      type: 'limit',
    },
  ])

/**
 * Stores a newly trained classifier unless its key already has the most it may. The count and the insert
 * run under a lock on the key's classifiers, so concurrent trainings cannot both take the last place.
 */
export async function createClassifier(db: Db, input: NewClassifier): Promise<ClassifierRow> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`classifiers:${input.keyId}`}))`)
    const [{ count }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(classifiers)
      .where(eq(classifiers.keyId, input.keyId))
    if (count >= searchLimits.maxClassifiersPerKey) throw tooManyClassifiers()
    const [row] = await tx.insert(classifiers).values(input).returning()
    return row
  })
}

/**
 * Saves further training of a classifier, unless another request trained it meanwhile (its
 * `updated_number` moved on): then this training was on stale weights and is refused rather than
 * silently dropping the other one's.
 */
export async function saveTraining(
  db: Db,
  before: ClassifierRow,
  next: { labels: string[]; weights: Uint8Array; access?: 'public' | 'private'; name?: string | null },
): Promise<ClassifierRow> {
  const [row] = await db
    .update(classifiers)
    .set({
      labels: next.labels,
      weights: next.weights,
      access: next.access ?? before.access,
      name: next.name === undefined ? before.name : next.name,
      updatedNumber: sql`${classifiers.updatedNumber} + 1`,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(classifiers.id, before.id),
        eq(classifiers.keyId, before.keyId),
        eq(classifiers.updatedNumber, before.updatedNumber),
      ),
    )
    .returning()
  if (!row) throw new ClassifierChanged()
  return row
}

export async function recordUse(db: Db, id: string): Promise<void> {
  await db
    .update(classifiers)
    .set({ usedNumber: sql`${classifiers.usedNumber} + 1`, usedAt: sql`now()` })
    .where(eq(classifiers.id, id))
}

export async function listClassifiers(db: Db, keyId: string): Promise<ClassifierItem[]> {
  const rows = await db
    .select()
    .from(classifiers)
    .where(eq(classifiers.keyId, keyId))
    .orderBy(desc(classifiers.createdAt), desc(classifiers.id))
  return rows.map(classifierItem)
}

/** Names (or, with null, unnames) one of the key's own classifiers; another key's reads as not found. */
export async function renameClassifier(db: Db, id: string, keyId: string, name: string | null): Promise<ClassifierRow> {
  if (!isUuid(id)) throw new ClassifierNotFound()
  const [row] = await db
    .update(classifiers)
    .set({ name })
    .where(and(eq(classifiers.id, id), eq(classifiers.keyId, keyId)))
    .returning()
  if (!row) throw new ClassifierNotFound()
  return row
}

export async function deleteClassifier(db: Db, id: string, keyId: string): Promise<void> {
  if (!isUuid(id)) throw new ClassifierNotFound()
  const deleted = await db
    .delete(classifiers)
    .where(and(eq(classifiers.id, id), eq(classifiers.keyId, keyId)))
    .returning({ id: classifiers.id })
  if (deleted.length === 0) throw new ClassifierNotFound()
}

export function classifierItem(row: ClassifierRow): ClassifierItem {
  return {
    classifier_id: row.id,
    name: row.name,
    model_name: row.modelName,
    labels: row.labels,
    access: row.access,
    updated_number: row.updatedNumber,
    used_number: row.usedNumber,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    used_at: row.usedAt?.toISOString() ?? null,
    metadata: { ...row.metadata, engine_model: row.engineModel },
  }
}
