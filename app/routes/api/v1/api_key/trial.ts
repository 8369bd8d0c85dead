import { createFileRoute } from '@tanstack/react-router'
import { issueKeyEndpoint } from '~/server/http/issue-key-endpoint'

/** Spec §7 key service: a new key with the free pack. A 429 here sends the dashboard to /empty. */
export const Route = createFileRoute('/api/v1/api_key/trial')({
  server: {
    handlers: {
      POST: issueKeyEndpoint('trial', {
        summary: 'Issue a trial key with the free pack of 10,000,000 tokens',
        description: 'Rate limited per client address; on 429 ask for an empty key instead.',
      }),
    },
  },
})
