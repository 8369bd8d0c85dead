import { serverEnv } from '~/server/env'

/**
 * The caller's address. Behind a proxy (TRUST_PROXY=true) it is the last X-Forwarded-For hop, the one our
 * proxy appended; earlier hops are whatever the client claimed. Otherwise the socket address that the
 * server adapter (srvx) puts on the request.
 */
export function clientAddress(request: Request, env = serverEnv()): string {
  if (env.TRUST_PROXY) {
    const hops = request.headers
      .get('x-forwarded-for')
      ?.split(',')
      .map((h) => h.trim())
      .filter(Boolean)
    if (hops?.length) return hops[hops.length - 1]
  }
  const r = request as Request & { ip?: string; context?: { clientAddress?: string } }
  return r.ip ?? r.context?.clientAddress ?? 'unknown'
}
