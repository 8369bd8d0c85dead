import * as schema from './schema'
import type { Database } from './types'
import type { Db } from './types'

/**
 * The embedded database: PGlite in `dataDir` (in memory without one). Its own module so the edge build can
 * leave it out (`pglite.edge.ts`): PGlite reads its WebAssembly and data files from its package folder.
 */
export async function openPglite(dataDir?: string): Promise<Database> {
  if (dataDir) await import('node:fs/promises').then((fs) => fs.mkdir(dataDir, { recursive: true }))
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const client = await PGlite.create(dataDir ? `${dataDir}/pglite` : undefined)
  const db = drizzle(client, { schema }) as unknown as Db
  return { db, kind: 'pglite', close: () => client.close() }
}
