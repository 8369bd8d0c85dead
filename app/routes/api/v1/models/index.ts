import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { modelAnswer, modelsQuery } from '~/contracts/catalogue'
import { models } from '~/server/api/catalogue'
import { endpoint } from '~/server/http/endpoint'

/** The model catalogue, optionally filtered by repeated `tag` parameters. */
export const Route = createFileRoute('/api/v1/models/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'The model catalogue',
          auth: 'none',
          query: modelsQuery,
          answer: v.array(modelAnswer),
          errors: [422],
          cache: 'public, max-age=300',
        },
        ({ query }) => models(query),
      ),
    },
  },
})
