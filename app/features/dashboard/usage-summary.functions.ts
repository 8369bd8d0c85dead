import { createServerFn } from '@tanstack/react-start'
import { usageSummaryInput } from '~/contracts/usage-summary'
import { usageSummaryFor } from '~/server/api/usage-summary'
import { validatorOf } from '~/server/http/input'
import { serverFnCaller } from '~/server/http/server-fn-caller'
import { apiCall } from '~/lib/api-call'

/** The usage summary for the dashboard: the same call as GET /api/v1/billing/usage_summary. */
export const fetchUsageSummary = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(usageSummaryInput))
  .handler(({ data: { apiKey, ...query } }) => usageSummaryFor(serverFnCaller(apiKey), query))
