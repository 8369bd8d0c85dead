import { createFileRoute } from '@tanstack/react-router'
import { requestLogAnswer, requestLogQuery } from '~/contracts/request-log'
import { requestLogFor } from '~/server/api/request-log/read'
import { endpoint } from '~/server/http/endpoint'

/** The request log: the key's metered API requests (the account's, for its signed-in owner), newest first. */
export const Route = createFileRoute('/api/v1/requests/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'Metered API requests, newest first, with filters and a cursor',
          description:
            "Every metered API request of the key, answered or refused (time, key, product, model, engine, input and output tokens, latency, status, request id; never what it carried), kept `retention_days`. With the account owner's session, every key of the account, or the one `key_id` names.",
          group: 'billing',
          auth: 'key',
          query: requestLogQuery,
          answer: requestLogAnswer,
          errors: [401, 422, 429],
        },
        ({ caller, query }) => requestLogFor(caller, query),
      ),
    },
  },
})
