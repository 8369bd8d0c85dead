import { createMiddleware } from '@tanstack/react-start'
import { serverEnv } from '~/server/env'
import { PRERENDER_NONCE } from '~/server/http/prerendered'
import { contentSecurityPolicy, createNonce, isApiPath } from '~/server/http/security'
import { withHeaders } from '~/server/http/answer-headers'
import { isPrerendering } from '~/server/http/prerendering'

/**
 * A page rendered live runs with a fresh CSP nonce, handed to the render through Start's context
 * (app/router.tsx gives it to `ssr.nonce`), and leaves with the page policy that allows that nonce. The
 * prerenderer renders with a fixed nonce that the build replaces by script hashes.
 */
export const pagePolicy = createMiddleware().server(async ({ pathname, next }) => {
  if (isApiPath(pathname)) return next()
  const nonce = isPrerendering() ? PRERENDER_NONCE : createNonce()
  const result = await next({ context: { nonce } })
  const policy = contentSecurityPolicy({ nonce }, serverEnv(), import.meta.env?.MODE === 'development')
  result.response = withHeaders(result.response, (headers) => headers.set('Content-Security-Policy', policy))
  return result
})
