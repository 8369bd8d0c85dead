import { createFileRoute } from '@tanstack/react-router'
import { scrapeMetrics } from '~/server/api/metrics'
import { bearerToken } from '~/server/http/auth'
import { jsonResponse } from '~/server/http/errors'

/** Prometheus metrics of this instance (METRICS_TOKEN bearer; 404 while unset). See README "Deploying at scale". */
export const Route = createFileRoute('/metrics')({
  server: {
    handlers: {
      GET: async ({ request }) => {
        const scrape = await scrapeMetrics(bearerToken(request))
        if (scrape.kind === 'absent') return jsonResponse({ detail: 'Not found' }, { status: 404 })
        if (scrape.kind === 'refused')
          return jsonResponse(
            { detail: 'Metrics need Authorization: Bearer <METRICS_TOKEN>' },
            { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } },
          )
        return new Response(scrape.body, {
          headers: { 'content-type': scrape.contentType, 'cache-control': 'no-store' },
        })
      },
    },
  },
})
