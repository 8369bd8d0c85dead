import { and, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm'
import { base64url } from 'jose'
import { sessions, users } from '../db/schema'
import type { Db } from '../db/types'
import type { User } from './users'
import { recordAudit, type AuditBy } from './audit'

/**
 * 32 random bytes; the row keeps only their SHA-256, so a database copy opens no session. `signedInAt` is when
 * the sign-in it comes from happened (the ID token's auth_time; now by default).
 */
export async function openSession(
  db: Db,
  by: AuditBy,
  uid: string,
  days: number,
  signedInAt = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = base64url.encode(crypto.getRandomValues(new Uint8Array(32)))
  const expiresAt = new Date(Date.now() + days * 86_400_000)
  const tokenHash = await hashToken(token)
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({ tokenHash, uid, expiresAt, signedInAt })
    await recordAudit(tx, by, { action: 'session.opened', accountId: uid, details: { days } })
  })
  return { token, expiresAt }
}

/**
 * A live session (known token, not revoked, not expired), its user, when that user was last confirmed and
 * when the sign-in it began with happened.
 */
export interface LiveSession {
  id: string
  confirmedAt: Date
  signedInAt: Date
  user: User
}

/** A session opened before `signed_in_at` was kept began, at the latest, when it was opened. */
const began = sql<Date>`coalesce(${sessions.signedInAt}, ${sessions.createdAt})`

export async function liveSession(db: Db, token: string): Promise<LiveSession | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined
  const [row] = await db
    .select({
      id: sessions.id,
      confirmedAt: sessions.confirmedAt,
      signedInAt: began.mapWith(sessions.createdAt),
      user: users,
    })
    .from(sessions)
    .innerJoin(users, eq(users.uid, sessions.uid))
    .where(
      and(
        eq(sessions.tokenHash, await hashToken(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
  return row
}

/** The identity service said the session's user exists and is enabled: trusted again for another interval. */
export async function confirmSession(db: Db, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ confirmedAt: sql`now()` })
    .where(eq(sessions.id, sessionId))
}

/** Ends one session, whatever its token (a session that could not be confirmed). */
export async function revokeSession(db: Db, by: AuditBy, sessionId: string): Promise<void> {
  await endSessions(db, by, and(eq(sessions.id, sessionId), isNull(sessions.revokedAt))!, 'unconfirmed')
}

/** Ends every session of a user the identity service no longer has, or has disabled. */
export async function revokeUserSessions(db: Db, by: AuditBy, uid: string): Promise<void> {
  await endSessions(db, by, and(eq(sessions.uid, uid), isNull(sessions.revokedAt))!, 'user_disabled')
}

/**
 * Ends every session of a user that began before the identity service revoked the user's tokens (a password
 * changed or reset sets its validSince): a session taken before the change does not outlive it.
 */
export async function revokeSessionsBefore(db: Db, by: AuditBy, uid: string, tokensValidSince: Date): Promise<void> {
  await endSessions(
    db,
    by,
    and(
      eq(sessions.uid, uid),
      isNull(sessions.revokedAt),
      lt(began, sql`${tokensValidSince.toISOString()}::timestamptz`),
    )!,
    'tokens_revoked',
  )
}

export async function closeSession(db: Db, by: AuditBy, token: string): Promise<void> {
  await endSessions(
    db,
    by,
    and(eq(sessions.tokenHash, await hashToken(token)), isNull(sessions.revokedAt))!,
    'sign_out',
  )
}

/** Ends the sessions `which` matches, each with its audit row in the same transaction. */
async function endSessions(db: Db, by: AuditBy, which: SQL, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(which)
      .returning({ uid: sessions.uid })
    for (const { uid } of ended)
      await recordAudit(tx, by, { action: 'session.revoked', accountId: uid, details: { reason } })
  })
}

async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}
