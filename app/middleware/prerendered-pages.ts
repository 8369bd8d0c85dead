import { createMiddleware } from '@tanstack/react-start'
import { serverEnv } from '~/server/env'
import { prerenderedPage } from '~/server/http/prerendered'
import { isApiPath } from '~/server/http/security'
import { withHeaders } from '~/server/http/answer-headers'
import { isPrerendering } from '~/server/http/prerendering'

/** A page prerendered at build is served as built, with the policy that allows its inline scripts' hashes. */
export const prerenderedPages = createMiddleware().server(async ({ request, pathname, next }) => {
  if (isApiPath(pathname) || isPrerendering()) return next()
  const prerendered = await prerenderedPage(request, serverEnv())
  if (!prerendered) return next()
  return withHeaders(prerendered.response, (headers) => headers.set('Content-Security-Policy', prerendered.policy))
})
