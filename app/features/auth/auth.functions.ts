import { createServerFn } from '@tanstack/react-start'
import { setResponseHeader } from '@tanstack/react-start/server'
import { apiCall } from '~/lib/api-call'
import { viewerFor } from '~/server/api/account/profile'
import { serverFnCaller } from '~/server/http/server-fn-caller'

/** The session's user, or null: what the route guards ask before a screen that needs a sign-in. */
export const fetchViewer = createServerFn({ method: 'GET' })
  .middleware([apiCall])
  .handler(async () => {
    setResponseHeader('cache-control', 'no-store')
    return viewerFor(serverFnCaller())
  })
