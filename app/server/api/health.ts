import { pingDatabase } from '../db/client'
import { unavailabilityCode } from '../db/unavailable'
import { errorFields, log } from '../log'

/** A readiness probe must answer well inside the orchestrator's own timeout (usually 1 s or more). */
const DATABASE_WITHIN_MS = 800

/** Whether the database answers within 800 ms; known outages (refused, reset, too slow) logged in one line. */
export async function databaseReady(): Promise<boolean> {
  try {
    await pingDatabase(DATABASE_WITHIN_MS)
    return true
  } catch (error) {
    const code = (error as { code?: unknown }).code === 'PING_TIMEOUT' ? 'PING_TIMEOUT' : unavailabilityCode(error)
    log('warn', 'health check: database unreachable', code ? { code } : { error: errorFields(error) })
    return false
  }
}
