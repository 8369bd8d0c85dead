import { createFileRoute } from '@tanstack/react-router'
import { pingDatabase } from '~/server/db/client'
import { unavailabilityCode } from '~/server/db/unavailable'
import { jsonResponse } from '~/server/http/errors'
import { isStopping } from '~/server/lifecycle'
import { errorFields, log } from '~/server/log'

/** A readiness probe must answer well inside the orchestrator's own timeout (usually 1 s or more). */
const DATABASE_WITHIN_MS = 800

const unready = (body: Record<string, string>) =>
  jsonResponse({ status: 'unavailable', ...body }, { status: 503, headers: { 'Retry-After': '1' } })

/**
 * Readiness: 200 only while this instance can serve, that is while it is not shutting down and the
 * database answers within 800 ms. Liveness, which never depends on the database, is `/healthz/live`.
 */
export const Route = createFileRoute('/healthz')({
  server: {
    handlers: {
      GET: async () => {
        if (isStopping()) return unready({ database: 'not checked', reason: 'stopping' })
        try {
          await pingDatabase(DATABASE_WITHIN_MS)
          return jsonResponse({ status: 'ok', database: 'ok' })
        } catch (error) {
          // Known outages (refused, reset, too slow) in one line; anything else with its stack.
          const code =
            (error as { code?: unknown }).code === 'PING_TIMEOUT' ? 'PING_TIMEOUT' : unavailabilityCode(error)
          log('warn', 'health check: database unreachable', code ? { code } : { error: errorFields(error) })
          return unready({ database: 'unreachable' })
        }
      },
    },
  },
})
