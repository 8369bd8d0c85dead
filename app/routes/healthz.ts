import { createFileRoute } from '@tanstack/react-router'
import { pingDatabase } from '~/server/db/client'
import { jsonResponse } from '~/server/http/errors'
import { errorFields, log } from '~/server/log'

/** Liveness and readiness in one: answers 200 only when the database answers. */
export const Route = createFileRoute('/healthz')({
  server: {
    handlers: {
      GET: async () => {
        try {
          await pingDatabase()
          return jsonResponse({ status: 'ok', database: 'ok' })
        } catch (error) {
          log('error', 'health check: database unreachable', { error: errorFields(error) })
          return jsonResponse({ status: 'error', database: 'unreachable' }, { status: 503 })
        }
      },
    },
  },
})
