import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { auditExportQuery } from '~/contracts/audit-log'
import { auditExportFor } from '~/server/api/audit/read'
import { endpoint } from '~/server/http/endpoint'

/** The whole audit log as a file, streamed as it is read: CSV or a JSON array. */
export const Route = createFileRoute('/api/v1/audit/export')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'Export the audit log as CSV or JSON',
          group: 'account',
          auth: 'key',
          query: auditExportQuery,
          answer: v.array(v.unknown()),
          alternatives: [{ mediaType: 'text/csv', description: 'One row per event, with a header row.' }],
          errors: [401, 422, 429],
        },
        async ({ caller, query: { format } }) => {
          const body = await auditExportFor(caller, format)
          const day = new Date().toISOString().slice(0, 10)
          return new Response(body, {
            headers: {
              'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
              'content-disposition': `attachment; filename="audit-${day}.${format}"`,
              'cache-control': 'no-store',
            },
          })
        },
      ),
    },
  },
})
