import { createHash, timingSafeEqual } from 'node:crypto'
import { serverEnv } from '~/server/env'
import type { Db } from '../db/types'
import { requireActiveKey, type ApiKey } from '../domain/keys'
import { ServiceTokenRejected } from '../domain/refusals'

/** The token of an `Authorization: Bearer …` header, if there is one. */
export function bearerToken(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')
  return match?.[1]
}

/** The caller's key: the bearer key, or (spec §7 fe_user only) the `api_key` query parameter. Revoked keys get 401. */
export function requireKey(db: Db, request: Request, fromQuery?: string): Promise<ApiKey> {
  return requireActiveKey(db, bearerToken(request) ?? fromQuery)
}

const digest = (s: string) => createHash('sha256').update(s).digest()

/** The metering service's shared token (USAGE_SERVICE_TOKEN); without one configured the endpoint refuses everyone. */
export function requireServiceToken(request: Request): void {
  const expected = serverEnv().USAGE_SERVICE_TOKEN
  const given = bearerToken(request)
  if (!expected || !given || !timingSafeEqual(digest(expected), digest(given))) throw new ServiceTokenRejected()
}
