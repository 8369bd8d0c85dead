import { createFileRoute } from '@tanstack/react-router'
import { HttpError, errorResponse } from '~/server/http/errors'

/** An unknown API path is an API error, not the landing page a browser gets for unknown pages. */
const unknownEndpoint = () => errorResponse(new HttpError(404, 'Unknown endpoint'))

export const Route = createFileRoute('/api/$')({
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
