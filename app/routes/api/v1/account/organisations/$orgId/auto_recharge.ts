import { createFileRoute } from '@tanstack/react-router'
import { autoRechargeAnswer, autoRechargeBody, rechargeStatus } from '~/contracts/payments'
import {
  disableOrganisationAutoRechargeFor,
  organisationAutoRechargeFor,
  organisationRechargeStatusFor,
} from '~/server/api/organisations/billing'
import { parseOrganisationId } from '~/server/api/organisations/params'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/organisations/$orgId/auto_recharge')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "An organisation's auto-recharge",
          description: 'Owners, admins and billing members.',
          auth: 'session',
          answer: rechargeStatus,
          errors: [401, 403, 404, 409, 429],
        },
        ({ caller, params }) => organisationRechargeStatusFor(caller, parseOrganisationId(params)),
      ),
      POST: endpoint(
        {
          summary: "Turn an organisation's auto-recharge on",
          description:
            'Owners, admins and billing members; as `/api/v1/auto_recharge`, for the shared balance (a debit of any of its keys that takes it below the threshold buys the pack).',
          auth: 'session',
          json: autoRechargeBody,
          answer: autoRechargeAnswer,
          errors: [401, 403, 404, 409, 422, 429, 501, 502],
        },
        ({ caller, params, json }) => organisationAutoRechargeFor(caller, parseOrganisationId(params), json),
      ),
      DELETE: endpoint(
        {
          summary: "Turn an organisation's auto-recharge off",
          description: 'Owners, admins and billing members.',
          auth: 'session',
          answer: rechargeStatus,
          errors: [401, 403, 404, 409, 429],
        },
        ({ caller, params }) => disableOrganisationAutoRechargeFor(caller, parseOrganisationId(params)),
      ),
    },
  },
})
