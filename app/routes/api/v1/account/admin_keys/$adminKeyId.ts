import { createFileRoute } from '@tanstack/react-router'
import { adminKeySchema } from '~/contracts/admin-keys'
import { parseAdminKeyId, revokeAdminKeyFor } from '~/server/api/admin/keys'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/admin_keys/$adminKeyId')({
  server: {
    handlers: {
      DELETE: endpoint(
        {
          summary: 'Revoke an Administration API key',
          description:
            'It is refused everywhere from now on; it stays in the list, revoked. For the organisation’s owners.',
          group: 'account',
          auth: 'session',
          answer: adminKeySchema,
          errors: [401, 403, 404, 429],
        },
        ({ caller, params }) => revokeAdminKeyFor(caller, parseAdminKeyId(params)),
      ),
    },
  },
})
