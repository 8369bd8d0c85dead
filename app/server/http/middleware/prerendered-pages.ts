import { createMiddleware } from '@tanstack/react-start'
import { serverEnv } from '../../env'
import { prerenderedPage } from '../prerendered'
import { isApiPath } from '../security'
import { withHeaders } from './answer-headers'
import { isPrerendering } from './prerendering'

/** A page prerendered at build is served as built, with the policy that allows its inline scripts' hashes. */
export const prerenderedPages = createMiddleware().server(async ({ request, pathname, next }) => {
  if (isApiPath(pathname) || isPrerendering()) return next()
  const prerendered = await prerenderedPage(request, serverEnv())
  if (!prerendered) return next()
  return withHeaders(prerendered.response, (headers) => headers.set('Content-Security-Policy', prerendered.policy))
})
