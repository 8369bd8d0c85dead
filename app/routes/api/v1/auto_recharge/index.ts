import { createFileRoute } from '@tanstack/react-router'
import { autoRechargeAnswer, autoRechargeBody, rechargeStatus } from '~/contracts/payments'
import { autoRechargeFor } from '~/server/api/payments/checkout'
import { disableAutoRechargeFor, rechargeStatusFor } from '~/server/api/payments/recharge-settings'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/auto_recharge/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "The key's auto-recharge: settings, saved card, last attempt",
          group: 'billing',
          auth: 'key',
          answer: rechargeStatus,
          errors: [401, 429],
        },
        ({ caller }) => rechargeStatusFor(caller),
      ),
      POST: endpoint(
        {
          summary: 'Turn auto-recharge on',
          description:
            'Buys `price_id` whenever a debit takes the balance below `metadata.threshold`. A key with a saved card (saved alone, or at an earlier purchase) is set at once (`url` is `success_url`); any other key is sent to a checkout: with `save_card_only: true` one in setup mode that saves a card and charges nothing, else one that buys the pack and keeps the card. Auto-recharge starts when the card is saved or the payment credited. `metadata.auto_recharge: false` turns it off.',
          group: 'billing',
          auth: 'key',
          json: autoRechargeBody,
          example: {
            price_id: 'price_tokens_1b',
            success_url: 'https://lodestar.example/api-dashboard/auto-recharge',
            cancel_url: 'https://lodestar.example/api-dashboard/auto-recharge',
            email: 'dev@example.com',
            metadata: { auto_recharge: true, threshold: 1000000, currency: 'USD' },
          },
          answer: autoRechargeAnswer,
          errors: [401, 409, 422, 429, 501, 502],
        },
        ({ caller, json }) => autoRechargeFor(caller, json),
      ),
      DELETE: endpoint(
        {
          summary: 'Turn auto-recharge off',
          group: 'billing',
          auth: 'key',
          answer: rechargeStatus,
          errors: [401, 429],
        },
        ({ caller }) => disableAutoRechargeFor(caller),
      ),
    },
  },
})
