import { createFileRoute } from '@tanstack/react-router'
import { jsonResponse } from '~/server/http/errors'

/** Liveness: the process is up and serving HTTP. It never checks the database, so an outage there does not get healthy instances restarted. */
export const Route = createFileRoute('/healthz/live')({
  server: {
    handlers: {
      GET: () => jsonResponse({ status: 'ok' }),
    },
  },
})
