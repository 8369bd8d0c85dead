import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react'
import type { MessageDescriptor } from '@lingui/core'

/** Spec §8 identity codes, and the others a sign-in screen meets, in the visitor's language. */
const messages: Record<string, MessageDescriptor> = {
  'invalid-credential': msg`That e-mail and password do not match an account.`,
  'invalid-login-credentials': msg`That e-mail and password do not match an account.`,
  'wrong-password': msg`The password is not right.`,
  'email-already-in-use': msg`An account with this e-mail already exists. Sign in instead.`,
  'user-not-found': msg`There is no account with this e-mail.`,
  'too-many-requests': msg`Too many attempts. Wait a few minutes and try again.`,
  'requires-recent-login': msg`Please sign in again to continue.`,
  'network-request-failed': msg`The sign-in service could not be reached. Check your connection and try again.`,
  'popup-blocked': msg`The browser blocked the sign-in window. Allow pop-ups for this site and try again.`,
  'popup-closed-by-user': msg`The sign-in window was closed before sign-in finished.`,
  'unauthorized-domain': msg`Sign-in is not allowed from this address.`,
  'user-disabled': msg`This account has been disabled.`,
  'user-token-expired': msg`Your sign-in has expired. Please sign in again.`,
  'invalid-email': msg`Enter a valid e-mail address.`,
  'missing-password': msg`Enter your password.`,
  'weak-password': msg`The password does not meet the requirements.`,
  'password-does-not-meet-requirements': msg`The password does not meet the requirements.`,
  'invalid-action-code': msg`This code is not valid or was already used.`,
  'expired-action-code': msg`This code has expired. Ask for a new one.`,
  'operation-not-allowed': msg`This way of signing in is not enabled.`,
  'account-exists-with-different-credential': msg`This e-mail already signs in another way. Use that way first.`,
}
const fallback = msg`Sign-in failed. Try again.`

/** `auth/<code>` from the SDK's error or from our API's `{detail}`. */
export function identityCode(error: unknown): string | undefined {
  const { code, detail } = (error ?? {}) as { code?: unknown; detail?: unknown }
  for (const text of [code, detail])
    if (typeof text === 'string' && text.startsWith('auth/')) return text.slice(5).split(':')[0]
  return undefined
}

export function identityMessage(error: unknown): MessageDescriptor {
  const code = identityCode(error)
  return (code && messages[code]) || fallback
}

/** The text to show for a failed identity call. */
export function useIdentityMessage() {
  const { i18n } = useLingui()
  return (error: unknown) => i18n._(identityMessage(error))
}
