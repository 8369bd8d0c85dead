import { createFileRoute } from '@tanstack/react-router'
import { unknownEndpointHandlers } from '~/server/http/methods'

/** An unknown API path is an API error, not the landing page a browser gets for unknown pages. */
export const Route = createFileRoute('/api/$')({
  server: { handlers: unknownEndpointHandlers },
})
