import { createServerFn } from '@tanstack/react-start'
import { setResponseHeader } from '@tanstack/react-start/server'
import { apiCall } from '~/features/dashboard/api-call.functions'
import { optionalAccountOf } from '~/server/api/account/session'
import { userAnswer } from '~/server/domain/users'
import { serverFnCaller } from '~/server/http/server-fn-caller'

/** The session's user, or null: what the route guards ask before a screen that needs a sign-in. */
export const fetchViewer = createServerFn({ method: 'GET' })
  .middleware([apiCall])
  .handler(async () => {
    setResponseHeader('cache-control', 'no-store')
    const account = await optionalAccountOf(serverFnCaller())
    return account ? userAnswer(account.user) : null
  })
