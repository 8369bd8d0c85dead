import type { ServerEnv } from '~/server/env'

/** Where ID tokens come from and how they are checked; undefined when no Firebase project is configured. */
export interface IdentityConfig {
  projectId: string
  apiKey: string
  authDomain: string
  /** `http://host:port` of the Auth emulator, in emulator mode. */
  emulatorUrl?: string
  /** Where the RS256 keys are published: Google's, unless FIREBASE_JWKS_URL says otherwise (tests). */
  jwksUrl?: string
  /** Unsigned tokens are accepted only here: the emulator serving a `demo-` project, which no real one can be. */
  acceptUnsigned: boolean
  /** Identity Toolkit's REST API: the emulator's, else (unset) Google's. */
  identityToolkitUrl?: string
  /** The service account the server asks the identity service about users with (FIREBASE_SERVICE_ACCOUNT). */
  serviceAccount?: { clientEmail: string; privateKey: string }
  /** Where a service account's token is asked for: Google's OAuth, unless a test points it at loopback. */
  tokenUrl?: string
}

export function identityConfig(env: ServerEnv): IdentityConfig | undefined {
  const projectId = env.FIREBASE_PROJECT_ID
  if (!projectId) return undefined
  const emulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST
  return {
    projectId,
    // The emulator takes any API key; a real project needs its own.
    apiKey: env.FIREBASE_API_KEY ?? (emulatorHost ? 'emulator-api-key' : ''),
    authDomain: env.FIREBASE_AUTH_DOMAIN ?? `${projectId}.firebaseapp.com`,
    emulatorUrl: emulatorHost ? `http://${emulatorHost}` : undefined,
    jwksUrl: env.FIREBASE_JWKS_URL,
    acceptUnsigned: !!emulatorHost && projectId.startsWith('demo-'),
    identityToolkitUrl: emulatorHost ? `http://${emulatorHost}/identitytoolkit.googleapis.com` : undefined,
    serviceAccount: env.FIREBASE_SERVICE_ACCOUNT,
  }
}
