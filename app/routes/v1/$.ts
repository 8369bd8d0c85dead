import { createFileRoute } from '@tanstack/react-router'
import { unknownEndpoint } from '~/server/http/methods'

/** An unknown search API path is an API error, not the landing page a browser gets for unknown pages. */
export const Route = createFileRoute('/v1/$')({
  server: {
    handlers: {
      GET: unknownEndpoint,
      POST: unknownEndpoint,
      PUT: unknownEndpoint,
      PATCH: unknownEndpoint,
      DELETE: unknownEndpoint,
    },
  },
})
