import { createFileRoute } from '@tanstack/react-router'
import { pingDatabase } from '~/server/db/client'
import { jsonResponse } from '~/server/http/errors'

/** Liveness and readiness in one: answers 200 only when the database answers. */
export const Route = createFileRoute('/healthz')({
  server: {
    handlers: {
      GET: async () => {
        try {
          await pingDatabase()
          return jsonResponse({ status: 'ok', database: 'ok' })
        } catch (error) {
          console.error('[healthz] database check failed', error)
          return jsonResponse({ status: 'error', database: 'unreachable' }, { status: 503 })
        }
      },
    },
  },
})
