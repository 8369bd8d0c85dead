/**
 * An invitation link's token, kept in this tab's session storage from the moment the link is opened until it is
 * accepted or dismissed: sign-in, sign-up and the e-mail check in between navigate away from the link's URL.
 */
const storageKey = 'pendingInvitation'

export function keepInvitation(token: string | undefined): void {
  if (!token || typeof window === 'undefined') return
  try {
    window.sessionStorage.setItem(storageKey, token)
  } catch {
    // Storage refused (private mode, quota): the link's URL still carries the token while it is open.
  }
}

export function pendingInvitation(): string | null {
  if (typeof window === 'undefined') return null
  try {
    return window.sessionStorage.getItem(storageKey)
  } catch {
    return null
  }
}

export function forgetInvitation(): void {
  try {
    window.sessionStorage.removeItem(storageKey)
  } catch {
    // Nothing kept, nothing to forget.
  }
}
