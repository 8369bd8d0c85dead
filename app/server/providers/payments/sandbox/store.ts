import { eq } from 'drizzle-orm'
import { sandboxObjects } from '../../../db/schema'
import type { Db, Tx } from '../../../db/types'

/** The sandbox's objects as Stripe shapes them (`cs_test_…`, `pi_test_…`, `cus_test_…`, `pm_test_…`). */
export type SandboxObject = Record<string, unknown> & { id: string; object: string }

export const sandboxId = (prefix: string) => `${prefix}_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`

export async function readObject<T extends SandboxObject>(db: Db | Tx, id: string): Promise<T | undefined> {
  const [row] = await db.select().from(sandboxObjects).where(eq(sandboxObjects.id, id))
  return row?.data as T | undefined
}

/** The object with its row locked until `tx` ends: whoever reads it next this way waits for what `tx` decides. */
export async function lockObject<T extends SandboxObject>(tx: Tx, id: string): Promise<T | undefined> {
  const [row] = await tx.select().from(sandboxObjects).where(eq(sandboxObjects.id, id)).for('update')
  return row?.data as T | undefined
}

export async function writeObject(db: Db | Tx, object: SandboxObject): Promise<void> {
  await db
    .insert(sandboxObjects)
    .values({ id: object.id, kind: object.object, data: object })
    .onConflictDoUpdate({ target: sandboxObjects.id, set: { data: object } })
}
