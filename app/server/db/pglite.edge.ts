import { ConfigError } from '../env'
import type * as Embedded from './pglite'

/** The edge build has no embedded database (and refuses to start without DATABASE_URL: runtime.edge.ts). */
export const openPglite: typeof Embedded.openPglite = async () => {
  throw new ConfigError('Invalid environment: DATABASE_URL must be set: the edge build has no embedded database')
}
