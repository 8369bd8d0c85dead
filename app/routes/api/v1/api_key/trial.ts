import { createFileRoute } from '@tanstack/react-router'
import { issueKeyForCaptcha } from '~/server/http/issue-key'

/** Spec §7 key service: a new key with the free pack. A 429 here sends the dashboard to /empty. */
export const Route = createFileRoute('/api/v1/api_key/trial')({
  server: { handlers: { POST: issueKeyForCaptcha('trial') } },
})
