import { createFileRoute } from '@tanstack/react-router'
import { databaseReady } from '~/server/api/health'
import { jsonResponse } from '~/server/http/errors'
import { isStopping } from '~/server/lifecycle'

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
        if (await databaseReady()) return jsonResponse({ status: 'ok', database: 'ok' })
        return unready({ database: 'unreachable' })
      },
    },
  },
})
