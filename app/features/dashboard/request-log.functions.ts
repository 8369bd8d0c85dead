import { createServerFn } from '@tanstack/react-start'
import { requestLogInput } from '~/contracts/request-log'
import { requestLogFor } from '~/server/api/request-log/read'
import { validatorOf } from '~/server/http/input'
import { serverFnCaller } from '~/server/http/server-fn-caller'
import { apiCall } from '~/lib/api-call'

/** The request log for the dashboard: the same call as GET /api/v1/requests, the key in the body. */
export const fetchRequestLog = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(requestLogInput))
  .handler(({ data: { apiKey, ...query } }) => requestLogFor(serverFnCaller(apiKey), query))
