import { SESSION_COOKIE } from '../api/account/session'

/** The sign-in session's token, from the request's cookie (set by `startSession`), or undefined. */
export function sessionTokenOf(request: Request): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === SESSION_COOKIE) return value.join('=') || undefined
  }
  return undefined
}
