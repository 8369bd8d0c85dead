import { createFileRoute } from '@tanstack/react-router'
import { brand } from '#config'
import { usageAnswer, usageBody } from '~/contracts/metering'
import { meterUsage } from '~/server/api/usage'
import { endpoint } from '~/server/http/endpoint'

/** Metering: a search service charges a key for one usage event, once however often it is sent. 402 when short. */
export const Route = createFileRoute('/internal/v1/usage')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Meter consumption for a key (service token); idempotent per usage_event_id',
          description:
            'Give exactly one of `api_key` and `key_id`. A repeated `usage_event_id` answers `duplicate: true` without charging again; 409 if it was recorded for another key, 402 if the balance is too low.',
          auth: 'service',
          json: usageBody,
          example: {
            api_key: `${brand.keyPrefix}…`,
            product: 'embeddings',
            tokens: 1200,
            usage_event_id: 'req-8f14e45f',
          },
          answer: usageAnswer,
          errors: [401, 402, 404, 409, 415, 422],
        },
        ({ json }) => meterUsage(json),
      ),
    },
  },
})
