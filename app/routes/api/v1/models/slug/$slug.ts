import { createFileRoute } from '@tanstack/react-router'
import { modelAnswer } from '~/contracts/catalogue'
import { model } from '~/server/api/catalogue'
import { endpoint } from '~/server/http/endpoint'

/** One model with its `num_replicas` (spec §7). */
export const Route = createFileRoute('/api/v1/models/slug/$slug')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'One model, with num_replicas',
          auth: 'none',
          answer: modelAnswer,
          errors: [404],
          cache: 'public, max-age=60',
        },
        ({ params }) => model(params.slug ?? ''),
      ),
    },
  },
})
