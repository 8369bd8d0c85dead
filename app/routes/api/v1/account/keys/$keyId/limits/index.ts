import { createFileRoute } from '@tanstack/react-router'
import { spendLimitAnswer, spendLimitInput, spendLimitsAnswer } from '~/contracts/spend-limits'
import { parseKeyId } from '~/server/api/account/keys'
import { addSpendLimitFor, spendLimitsFor } from '~/server/api/account/spend-limits'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/keys/$keyId/limits/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: "A key's spend limits, with what each has counted in its current period",
          auth: 'session',
          answer: spendLimitsAnswer,
          errors: [401, 404, 429],
        },
        ({ caller, params }) => spendLimitsFor(caller, parseKeyId(params)),
      ),
      POST: endpoint(
        {
          summary: 'Add a spend limit to a key',
          description:
            "The most the key may consume in a UTC day, week (from Monday) or month, in tokens or in US dollars at the price its tokens were bought at (the list price for tokens it did not buy). A key may have several; a request that would pass any of them is refused with 402 until that one resets. A new limit counts what the key already consumed in the current period. With `alert_percent`, one e-mail a period goes to `alert_email` (by default the key owner's address) when that share is used.",
          auth: 'session',
          json: spendLimitInput,
          answer: spendLimitAnswer,
          errors: [401, 404, 422, 429],
        },
        ({ caller, params, json }) => addSpendLimitFor(caller, parseKeyId(params), json),
      ),
    },
  },
})
