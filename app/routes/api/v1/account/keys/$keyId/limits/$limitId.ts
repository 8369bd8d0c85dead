import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { parseKeyId } from '~/server/api/account/keys'
import { parseLimitId, removeSpendLimitFor } from '~/server/api/account/spend-limits'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/keys/$keyId/limits/$limitId')({
  server: {
    handlers: {
      DELETE: endpoint(
        {
          summary: 'Remove a spend limit of a key',
          auth: 'session',
          answer: v.object({ detail: v.string() }),
          errors: [401, 404, 429],
        },
        ({ caller, params }) => removeSpendLimitFor(caller, parseKeyId(params), parseLimitId(params)),
      ),
    },
  },
})
