import type { AccountKey, AuthConfig, UserAnswer } from '~/contracts/account'
import type { KeyControls, KeyControlsInput } from '~/contracts/key-controls'
import type { SpendLimit, SpendLimitInput } from '~/contracts/spend-limits'
import { restCall } from '~/lib/rest-call'

/** What the controls form sends: the input as it travels, before the server normalises it. */
type KeyControlsWire = { [K in keyof KeyControlsInput]: KeyControlsInput[K] }

/**
 * The account service as the dashboard and sign-in call it: same-origin REST (app/lib/rest-call.ts), so the
 * session cookie goes along and a sign-in call carries the ID token.
 */
const request = restCall

export const accountApi = {
  config: () => request<AuthConfig>('GET', 'account/config'),
  /** The session's user, or null when this browser has no live session. */
  session: async () => (await request<{ user: UserAnswer | null }>('GET', 'account/session')).user,
  startSession: (idToken: string, profile: { displayName?: string | null; photoURL?: string | null }) =>
    request<UserAnswer>('POST', 'account/session', { idToken, json: profile }),
  /** The stored user, brought up to date with the ID token's claims (a just-verified address among them). */
  userInfo: (idToken: string) => request<UserAnswer>('POST', 'account/getUserInfo', { idToken, json: {} }),
  endSession: () => request<{ detail: string }>('DELETE', 'account/session'),
  /** Answers the same whether or not the address has an account: what happened is told by e-mail. */
  signUp: (email: string, password: string) =>
    request<{ detail: string }>('POST', 'account/sign_up', { json: { email, password } }),
  resetPassword: (oobCode: string, newPassword: string) =>
    request<{ email: string }>('POST', 'account/reset_password', { json: { oobCode, newPassword } }),
  updateProfile: (fields: {
    displayName?: string | null
    photoURL?: string | null
    notificationEmail?: string | null
    preferences?: Record<string, string | boolean | number | null>
  }) => request<UserAnswer>('PATCH', 'account/profile', { json: fields }),
  keys: () => request<{ keys: AccountKey[] }>('GET', 'account/keys'),
  createKey: (name: string, captcha: string) =>
    request<{ api_key: string; key: AccountKey }>('POST', 'account/keys', { json: { name, captcha } }),
  claimKey: (apiKey: string, captcha: string, name?: string) =>
    request<AccountKey>('POST', 'account/keys/claim', { json: { api_key: apiKey, captcha, name } }),
  renameKey: (keyId: string, name: string) =>
    request<AccountKey>('PATCH', `account/keys/${encodeURIComponent(keyId)}`, { json: { name } }),
  revealKey: (keyId: string) =>
    request<{ api_key: string }>('POST', `account/keys/${encodeURIComponent(keyId)}/reveal`),
  keyControls: (keyId: string) => request<KeyControls>('GET', `account/keys/${encodeURIComponent(keyId)}/controls`),
  setKeyControls: (keyId: string, controls: KeyControlsWire) =>
    request<KeyControls>('PUT', `account/keys/${encodeURIComponent(keyId)}/controls`, { json: controls }),
  spendLimits: (keyId: string) =>
    request<{ limits: SpendLimit[] }>('GET', `account/keys/${encodeURIComponent(keyId)}/limits`),
  addSpendLimit: (keyId: string, limit: SpendLimitInput) =>
    request<SpendLimit>('POST', `account/keys/${encodeURIComponent(keyId)}/limits`, { json: limit }),
  removeSpendLimit: (keyId: string, limitId: string) =>
    request<{ detail: string }>(
      'DELETE',
      `account/keys/${encodeURIComponent(keyId)}/limits/${encodeURIComponent(limitId)}`,
    ),
  revokeKey: (keyId: string) => request<{ detail: string }>('DELETE', `account/keys/${encodeURIComponent(keyId)}`),
}

/** Spec §7 tickets viewer, with the signed-in user's ID token. */
export async function fetchTicketCount(idToken: string): Promise<number> {
  return (await request<{ totalQuantity: number }>('GET', 'tickets/viewer', { idToken })).totalQuantity
}
