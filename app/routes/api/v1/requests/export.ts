import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { requestLogExportQuery } from '~/contracts/request-log'
import { requestLogExportFor } from '~/server/api/request-log/export'
import { endpoint } from '~/server/http/endpoint'

/** The request log as a file, streamed as it is read: CSV or a JSON array, same filters as the page. */
export const Route = createFileRoute('/api/v1/requests/export')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'Export the request log as CSV or JSON',
          description:
            'The whole log under the filters, newest first, streamed: CSV with a header row (`format=csv`, the default) or a JSON array of the rows `GET /api/v1/requests` lists (`format=json`).',
          group: 'billing',
          auth: 'key',
          query: requestLogExportQuery,
          answer: v.array(v.unknown()),
          alternatives: [{ mediaType: 'text/csv', description: 'One row per request, with a header row.' }],
          errors: [401, 422, 429],
        },
        async ({ caller, query: { format, ...filters } }) => {
          const body = await requestLogExportFor(caller, filters, format)
          const day = new Date().toISOString().slice(0, 10)
          return new Response(body, {
            headers: {
              'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
              'content-disposition': `attachment; filename="requests-${day}.${format}"`,
              'cache-control': 'no-store',
            },
          })
        },
      ),
    },
  },
})
