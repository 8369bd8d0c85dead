import type { UserAnswer } from '~/contracts/account'
import { getDb } from '../../db/client'
import type { Db } from '../../db/types'
import type { AuditBy } from '../../domain/audit'
import { RecentSignInRequired, SignInRequired } from '../../domain/refusals'
import {
  closeSession,
  confirmSession,
  liveSession,
  openSession,
  revokeSession,
  revokeSessionsBefore,
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
import { actingUser, auditBy } from '../audit/actor'

/** The sign-in session's cookie: the HTTP edge reads it into `Caller.sessionToken` (http/session-token.ts). */
export const SESSION_COOKIE = 'session'

/** A session is opened only from a sign-in this recent, as Firebase's own session cookies require. */
const RECENT_SIGN_IN_SECONDS = 5 * 60

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
  const token = caller.sessionToken
  if (!token) return undefined
  const db = await getDb()
  const session = await liveSession(db, token)
  if (!session) return undefined
  const age = Date.now() - session.confirmedAt.getTime()
  if (age >= serverEnv().SESSION_CHECK_SECONDS * 1000 && !(await userConfirmed(db, auditBy(caller), session)))
    return undefined
  actingUser(caller, session.user.uid)
  return { db, user: session.user }
}

let warnedUnconfirmable = false

/**
 * Asks the identity service about the session's user; ends the session when not confirmed: all of a gone or
 * disabled user's, and every one that began before the user's tokens were revoked (a password changed or reset),
 * as Firebase's own session cookies are judged against validSince.
 */
async function userConfirmed(db: Db, by: AuditBy, session: LiveSession): Promise<boolean> {
  const config = identityConfig(serverEnv())
  const { status, ...found } = config ? await userStatus(config, session.user.uid) : { status: 'unknown' as const }
  if (status === 'active') {
    const validSince = 'tokensValidSince' in found ? found.tokensValidSince : undefined
    // Both in whole seconds, as the service keeps them: a sign-in in the second of the change is after it.
    if (validSince && Math.floor(session.signedInAt.getTime() / 1000) * 1000 < validSince.getTime()) {
      await revokeSessionsBefore(db, by, session.user.uid, validSince)
      log('info', 'sessions ended: the identity service revoked the user’s tokens', {
        uid: session.user.uid,
        valid_since: validSince.toISOString(),
      })
      return false
    }
    await confirmSession(db, session.id)
    return true
  }
  if (status === 'unknown') {
    // Nothing to ask with: a session that cannot be confirmed lasts one interval, never its full days.
    if (!warnedUnconfirmable)
      log('warn', 'sessions cannot be confirmed with the identity service: set FIREBASE_SERVICE_ACCOUNT')
    warnedUnconfirmable = true
    await revokeSession(db, by, session.id)
    return false
  }
  await revokeUserSessions(db, by, session.user.uid)
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
  actingUser(caller, user.uid)
  const days = serverEnv().SESSION_DAYS
  const { token } = await openSession(db, auditBy(caller), user.uid, days, new Date(identity.authTime * 1000))
  return { user: userAnswer(user), cookie: sessionCookie(token, days * 86_400) }
}

/** Revokes this call's session row and answers the cookie that clears it. */
export async function endSession(caller: Caller): Promise<string> {
  const token = caller.sessionToken
  if (token) await closeSession(await getDb(), auditBy(caller), token)
  return sessionCookie('', 0)
}
