import { createFileRoute } from '@tanstack/react-router'
import { issueKeyEndpoint } from '~/server/http/issue-key-endpoint'

/** Spec §7 key service: a new key with no tokens, the fallback when trial keys are rate limited. */
export const Route = createFileRoute('/api/v1/api_key/empty')({
  server: { handlers: { POST: issueKeyEndpoint('empty', { summary: 'Issue a key with no tokens' }) } },
})
