import { createFileRoute } from '@tanstack/react-router'
import { adminAuditEvent, listOf, listQuery } from '~/contracts/admin-api'
import { auditLogsFor } from '~/server/api/admin/audit-logs'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/organization/audit_logs')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "The organisation's audit log",
          description:
            'Newest first: changes to its members, invitations, projects, admin keys and keys, with who made them (`actor`: a session, an API or admin key, or the system).',
          group: 'organization',
          auth: 'admin-key',
          query: listQuery,
          answer: listOf(adminAuditEvent),
          errors: [401, 403, 422, 429],
        },
        ({ caller, query }) => auditLogsFor(caller, query),
      ),
    },
  },
})
