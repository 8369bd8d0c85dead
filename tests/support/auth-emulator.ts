import { startAuthEmulator } from '../../local/auth-emulator.mjs'

/**
 * The Firebase Auth emulator on loopback, for tests: its REST API is the identity service's own, so what a
 * browser's SDK would do (sign in, send a code, sign in with a provider) is done here with the same calls.
 */
export async function authEmulator(
  projectId = 'demo-lodestar-test',
  port?: number,
  options: { accountsDir?: string } = {},
) {
  const emulator = await startAuthEmulator({ projectId, port, ...options })
  const rest = async <T = any>(method: string, body: object): Promise<T> => {
    const response = await fetch(`${emulator.url}/identitytoolkit.googleapis.com/v1/accounts:${method}?key=test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const answer = (await response.json()) as T & { error?: { message: string } }
    if (!response.ok) throw new Error(`${method}: ${answer.error?.message ?? response.status}`)
    return answer
  }
  return {
    ...emulator,
    projectId,
    env: emulatorEnv(projectId, emulator.host),
    signUp: (email: string, password: string) =>
      rest<{ idToken: string; localId: string }>('signUp', { email, password, returnSecureToken: true }),
    signIn: (email: string, password: string) =>
      rest<{ idToken: string; localId: string }>('signInWithPassword', { email, password, returnSecureToken: true }),
    /** Sign-in with an external provider, the emulator taking a made-up credential as the provider's answer. */
    signInWithProvider: (providerId: 'google.com' | 'github.com', profile: { sub: string; email: string }) =>
      rest<{ idToken: string; localId: string; email: string }>('signInWithIdp', {
        postBody: `id_token=${encodeURIComponent(JSON.stringify({ ...profile, email_verified: true }))}&providerId=${providerId}`,
        requestUri: 'http://localhost',
        returnSecureToken: true,
        returnIdpCredential: true,
      }),
    sendCode: (
      body: { requestType: 'VERIFY_EMAIL'; idToken: string } | { requestType: 'PASSWORD_RESET'; email: string },
    ) => rest('sendOobCode', body),
    applyCode: (oobCode: string) => rest<{ emailVerified?: boolean }>('update', { oobCode }),
    lookup: (idToken: string) => rest<{ users: Array<{ emailVerified: boolean }> }>('lookup', { idToken }),
    /** A signed-in user changing the password (the SDK's updatePassword): the service revokes older tokens. */
    changePassword: (idToken: string, password: string) =>
      rest<{ idToken: string }>('update', { idToken, password, returnSecureToken: true }),
    /** The user's validSince (seconds) as the server's lookup reads it, through the admin credential; 0 when unset. */
    async validSince(localId: string): Promise<number> {
      const response = await fetch(
        `${emulator.url}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:lookup`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
          body: JSON.stringify({ localId: [localId] }),
        },
      )
      const { users } = (await response.json()) as { users?: Array<{ validSince?: string }> }
      return Number(users?.[0]?.validSince ?? 0)
    },
    /** What an administrator does in the console, through the emulator's admin credential (`Bearer owner`). */
    admin: async (method: 'delete' | 'update', body: object) => {
      const response = await fetch(
        `${emulator.url}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:${method}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
          body: JSON.stringify(body),
        },
      )
      if (!response.ok) throw new Error(`admin ${method}: ${response.status} ${await response.text()}`)
    },
    /** The newest one-time code the emulator "mailed" to `email` for `requestType`. */
    codeFor: (email: string, requestType: CodeKind) =>
      emulatorCode({ url: emulator.url, projectId }, email, requestType),
  }
}

export type CodeKind = 'VERIFY_EMAIL' | 'PASSWORD_RESET' | 'EMAIL_SIGNIN'
export interface EmulatorCode {
  email: string
  requestType: string
  oobCode: string
  oobLink: string
}

/** Every one-time code the emulator at `url` "mailed" (its REST API lists every message it would have sent). */
export async function emulatorCodes({ url, projectId }: { url: string; projectId: string }): Promise<EmulatorCode[]> {
  const response = await fetch(`${url}/emulator/v1/projects/${projectId}/oobCodes`)
  return ((await response.json()) as { oobCodes: EmulatorCode[] }).oobCodes
}

/** The newest one-time code the emulator "mailed" to `email` for `requestType`. */
export async function emulatorCode(
  emulator: { url: string; projectId: string },
  email: string,
  requestType: CodeKind,
): Promise<EmulatorCode> {
  const code = (await emulatorCodes(emulator)).filter((c) => c.email === email && c.requestType === requestType).pop()
  if (!code) throw new Error(`no ${requestType} code for ${email}`)
  return code
}

/** What a server needs to sign users in with an emulator: known before the emulator answers, from its address. */
export const emulatorEnv = (projectId: string, host: string) => ({
  FIREBASE_PROJECT_ID: projectId,
  FIREBASE_AUTH_EMULATOR_HOST: host,
})

export type AuthEmulator = Awaited<ReturnType<typeof authEmulator>>
