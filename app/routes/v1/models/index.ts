import { createFileRoute } from '@tanstack/react-router'
import { servedModelsAnswer } from '~/contracts/served-models'
import { listServedModels } from '~/server/api/search/served-models'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/models/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'The models the search APIs know, and how this server serves each',
          description:
            "OpenAI's list shape (what `models.list()` of its SDKs reads), each model with its API id and aliases, capabilities, inputs, dimensions, task adapters, whether this server serves it and with which engine, and per endpoint the options it honours, does not apply (named in `X-Options-Not-Applied`) or refuses. No key needed.",
          auth: 'none',
          answer: servedModelsAnswer,
          errors: [],
        },
        () => listServedModels(),
      ),
    },
  },
})
