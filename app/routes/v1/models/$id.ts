import { createFileRoute } from '@tanstack/react-router'
import { servedModelRecord } from '~/contracts/served-models'
import { servedModelInfo } from '~/server/api/search/served-models'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/models/$id')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'One model, by its API id or an alias',
          description:
            'As in `GET /v1/models` (what `models.retrieve()` of OpenAI’s SDKs reads); 404 for any other name.',
          auth: 'none',
          answer: servedModelRecord,
          errors: [404],
        },
        ({ params }) => servedModelInfo(params.id),
      ),
    },
  },
})
