import { createFileRoute } from '@tanstack/react-router'
import { usageEndpoint } from '~/server/http/admin-usage-endpoint'

export const Route = createFileRoute('/v1/organization/usage/reader')({
  server: { handlers: { GET: usageEndpoint('reader') } },
})
