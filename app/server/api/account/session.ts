import type { UserAnswer } from '~/contracts/account'
import { getDb } from '../../db/client'
import type { Db } from '../../db/types'
import { RecentSignInRequired, SignInRequired } from '../../domain/refusals'
import {
  closeSession,
  confirmSession,
  liveSession,
  openSession,
  revokeSession,
  revokeUserSessions,
  type LiveSession,
} from '../../domain/sessions'
import { ensureUser, userAnswer, type ProfileFields, type User } from '../../domain/users'
import { serverEnv } from '../../env'
import { log } from '../../log'
import { identityConfig } from '../../providers/identity/config'
import { userStatus } from '../../providers/identity/user-status'
import type { Caller } from '../caller'
import { identityOf } from './identity'
import { actingUser } from '../audit/actor'

export const SESSION_COOKIE = 'session'

/** A session is opened only from a sign-in this recent, as Firebase's own session cookies require. */
const RECENT_SIGN_IN_SECONDS = 5 * 60

export function sessionTokenOf(request: Request): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === SESSION_COOKIE) return value.join('=') || undefined
  }
  return undefined
}

/** HttpOnly (script never sees it), Secure, SameSite=Lax (sent on top-level navigations, not cross-site posts). */
function sessionCookie(token: string, maxAgeSeconds: number): string {
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; Secure; SameSite=Lax`
}

/** The signed-in user of this call, from the session cookie; refused when there is none or it ended. */
export async function accountOf(caller: Caller): Promise<{ db: Db; user: User }> {
  const user = await optionalAccountOf(caller)
  if (!user) throw new SignInRequired()
  return user
}

/**
 * The session's user. A session is trusted for SESSION_CHECK_SECONDS (at most an hour, as an ID token) after
 * the identity service last confirmed its user; past that the service is asked again first, so a user deleted
 * or disabled there loses every session within the interval, not when the cookie expires.
 */
export async function optionalAccountOf(caller: Caller): Promise<{ db: Db; user: User } | undefined> {
  const token = sessionTokenOf(caller.request)
  if (!token) return undefined
  const db = await getDb()
  const session = await liveSession(db, token)
  if (!session) return undefined
  const age = Date.now() - session.confirmedAt.getTime()
  if (age >= serverEnv().SESSION_CHECK_SECONDS * 1000 && !(await userConfirmed(db, session))) return undefined
  actingUser(caller.request, session.user.uid)
  return { db, user: session.user }
}

let warnedUnconfirmable = false

/** Asks the identity service about the session's user; ends the session (all of a gone user's) when not confirmed. */
async function userConfirmed(db: Db, session: LiveSession): Promise<boolean> {
  const config = identityConfig(serverEnv())
  const status = config ? await userStatus(config, session.user.uid) : 'unknown'
  if (status === 'active') {
    await confirmSession(db, session.id)
    return true
  }
  if (status === 'unknown') {
    // Nothing to ask with: a session that cannot be confirmed lasts one interval, never its full days.
    if (!warnedUnconfirmable)
      log('warn', 'sessions cannot be confirmed with the identity service: set FIREBASE_SERVICE_ACCOUNT')
    warnedUnconfirmable = true
    await revokeSession(db, session.id)
    return false
  }
  await revokeUserSessions(db, session.user.uid)
  log('info', 'sessions ended: the identity service no longer has the user enabled', { uid: session.user.uid, status })
  return false
}

/**
 * Exchanges a fresh ID token for the server's session: verifies it, makes the user on first sign-in, and
 * answers the cookie to set with the stored user.
 */
export async function startSession(
  caller: Caller,
  initial: ProfileFields = {},
): Promise<{ user: UserAnswer; cookie: string }> {
  const identity = await identityOf(caller)
  if (Date.now() / 1000 - identity.authTime > RECENT_SIGN_IN_SECONDS) throw new RecentSignInRequired()
  const db = await getDb()
  const user = await ensureUser(db, identity, initial)
  actingUser(caller.request, user.uid)
  const days = serverEnv().SESSION_DAYS
  const { token } = await openSession(db, user.uid, days)
  return { user: userAnswer(user), cookie: sessionCookie(token, days * 86_400) }
}

/** Revokes this call's session row and answers the cookie that clears it. */
export async function endSession(caller: Caller): Promise<string> {
  const token = sessionTokenOf(caller.request)
  if (token) await closeSession(await getDb(), token)
  return sessionCookie('', 0)
}
