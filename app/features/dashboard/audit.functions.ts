import { createServerFn } from '@tanstack/react-start'
import { auditInput } from '~/contracts/audit-log'
import { auditFor } from '~/server/api/audit/read'
import { validatorOf } from '~/server/http/input'
import { serverFnCaller } from '~/server/http/server-fn-caller'
import { apiCall } from '~/lib/api-call'

/** The audit log for the dashboard: the same call as GET /api/v1/audit, the key in the body. */
export const fetchAudit = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(auditInput))
  .handler(({ data: { apiKey, ...query } }) => auditFor(serverFnCaller(apiKey), query))
