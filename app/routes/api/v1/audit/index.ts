import { createFileRoute } from '@tanstack/react-router'
import { auditAnswer, auditQuery } from '~/contracts/audit-log'
import { auditFor } from '~/server/api/audit/read'
import { endpoint } from '~/server/http/endpoint'

/** The audit log: the account's events for its signed-in owner, else the presented key's, newest first. */
export const Route = createFileRoute('/api/v1/audit/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'Audit log: changes to the account and its keys, newest first',
          description:
            'Keys created, named, revealed, revoked, claimed and transferred; purchases, recharges, refunds and disputes; balance alerts and auto-recharge changed; sign-ins and sessions ended. Each with its time, actor, client address and request id. The signed-in owner of the key sees the whole account; anyone else with the key, the key alone.',
          group: 'account',
          auth: 'key',
          query: auditQuery,
          answer: auditAnswer,
          errors: [401, 422, 429],
        },
        ({ caller, query }) => auditFor(caller, query),
      ),
    },
  },
})
