import { createFileRoute } from '@tanstack/react-router'
import { rechargeSettingsQuery, rechargeStatus } from '~/contracts/payments'
import { rechargeThresholdFor } from '~/server/api/payments/recharge-settings'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/auto_recharge/settings')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: "Change auto-recharge's threshold",
          description:
            'Only while auto-recharge is on (409 otherwise). A balance already below the new threshold starts one recharge now.',
          group: 'billing',
          auth: 'key',
          query: rechargeSettingsQuery,
          answer: rechargeStatus,
          errors: [401, 409, 422, 429, 501],
        },
        ({ caller, query }) => rechargeThresholdFor(caller, query.threshold),
      ),
    },
  },
})
