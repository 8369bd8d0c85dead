import { getDb } from '../db/client'
import type { Db } from '../db/types'
import type { ApiKey } from '../domain/keys'
import { requireKey } from './auth'
import { limitKey } from './rate-limit'

/** Every key-holder call of the dashboard API starts here: the key (401 if unknown or revoked), then its rate limit. */
export async function keyHolder(request: Request, fromQuery?: string): Promise<{ db: Db; key: ApiKey }> {
  const db = await getDb()
  const key = await requireKey(db, request, fromQuery)
  await limitKey('dashboard', key)
  return { db, key }
}
