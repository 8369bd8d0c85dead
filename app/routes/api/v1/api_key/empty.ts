import { createFileRoute } from '@tanstack/react-router'
import { issueKeyForCaptcha } from '~/server/http/issue-key'

/** Spec §7 key service: a new key with no tokens, the fallback when trial keys are rate limited. */
export const Route = createFileRoute('/api/v1/api_key/empty')({
  server: { handlers: { POST: issueKeyForCaptcha('empty') } },
})
