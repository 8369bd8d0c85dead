import { createFileRoute } from '@tanstack/react-router'
import { balanceNotificationAnswer, balanceNotificationBody } from '~/contracts/billing'
import {
  balanceNotificationFor,
  refuseInvalidThresholds,
  removeBalanceNotificationFor,
  setBalanceNotificationFor,
} from '~/server/api/billing'
import { endpoint } from '~/server/http/endpoint'

/** Balance alerts of the bearer key: up to 3 thresholds and one e-mail address. */
export const Route = createFileRoute('/api/v1/billing/balance_notification')({
  server: {
    handlers: {
      GET: endpoint(
        { summary: 'The balance alerts of the key', auth: 'key', answer: balanceNotificationAnswer, errors: [401] },
        ({ caller }) => balanceNotificationFor(caller),
      ),
      POST: endpoint(
        {
          summary: 'Set up to 3 balance alert thresholds and the e-mail',
          description:
            'One e-mail per threshold each time the balance falls below it. A bad thresholds list answers 400 `Invalid thresholds: Must be array with max 3 values`.',
          auth: 'key',
          json: balanceNotificationBody,
          example: { thresholds: [1_000_000, 100_000], email: 'you@example.com' },
          answer: balanceNotificationAnswer,
          errors: [400, 401, 415, 422],
          refuse: refuseInvalidThresholds,
        },
        ({ caller, json }) => setBalanceNotificationFor(caller, json),
      ),
      DELETE: endpoint(
        { summary: 'Remove all balance alerts', auth: 'key', answer: balanceNotificationAnswer, errors: [401] },
        ({ caller }) => removeBalanceNotificationFor(caller),
      ),
    },
  },
})
