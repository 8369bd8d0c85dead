import { IdentityRefused } from '../../domain/refusals'
import { serverEnv } from '../../env'
import { identityConfig, type IdentityConfig } from '../../providers/identity/config'
import { verifyIdToken, type Identity } from '../../providers/identity/verify-id-token'
import type { Caller } from '../caller'

export function requireIdentityConfig(): IdentityConfig {
  const config = identityConfig(serverEnv())
  if (!config) throw new IdentityRefused('sign-in is not configured (FIREBASE_PROJECT_ID)', 'operation-not-allowed')
  return config
}

/** The signed-in user a call's bearer ID token proves (spec §6: backend calls carry it). */
export async function identityOf(caller: Caller): Promise<Identity> {
  // A REST call's bearer token; the endpoint reads it into `presentedKey` whatever it carries.
  const token = caller.presentedKey
  if (!token) throw new IdentityRefused('no ID token')
  return verifyIdToken(token, requireIdentityConfig())
}
