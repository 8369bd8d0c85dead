import type { AuthConfig } from '~/contracts/account'

/** What a message of the identity service carries: a code, and the link to this site's page that takes it. */
export interface LocalMessage {
  email: string
  kind: 'verify' | 'reset' | 'sign-in'
  code: string
  /** The action page's address with the code, as the e-mail's link would be (localized by the caller). */
  search: string
}

const modes = { VERIFY_EMAIL: 'verifyEmail', PASSWORD_RESET: 'resetPassword', EMAIL_SIGNIN: 'signIn' } as const
const kinds = { VERIFY_EMAIL: 'verify', PASSWORD_RESET: 'reset', EMAIL_SIGNIN: 'sign-in' } as const

/**
 * The messages the Auth emulator would have e-mailed (it sends none, and keeps them at an address of its own
 * that only its log named), newest first; `undefined` when sign-in does not run on the emulator.
 */
export async function localMessages(config: AuthConfig | undefined): Promise<LocalMessage[] | undefined> {
  if (!config?.emulatorUrl) return undefined
  const response = await fetch(`${config.emulatorUrl}/emulator/v1/projects/${config.projectId}/oobCodes`)
  if (!response.ok) throw new Error(`the Auth emulator answered ${response.status}`)
  const { oobCodes = [] } = (await response.json()) as {
    oobCodes?: Array<{ email: string; requestType: keyof typeof modes; oobCode: string }>
  }
  return oobCodes
    .filter((entry) => entry.requestType in modes)
    .map((entry) => ({
      email: entry.email,
      kind: kinds[entry.requestType],
      code: entry.oobCode,
      // The e-mail-link sign-in reads the whole link, which names the project's API key as the real one does.
      search: new URLSearchParams({
        mode: modes[entry.requestType],
        oobCode: entry.oobCode,
        apiKey: config.apiKey,
      }).toString(),
    }))
    .reverse()
}
