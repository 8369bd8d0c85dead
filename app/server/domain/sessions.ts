import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm'
import { base64url } from 'jose'
import { sessions, users } from '../db/schema'
import type { Db } from '../db/types'
import type { User } from './users'
import { recordAudit } from './audit'

/** 32 random bytes; the row keeps only their SHA-256, so a database copy opens no session. */
export async function openSession(db: Db, uid: string, days: number): Promise<{ token: string; expiresAt: Date }> {
  const token = base64url.encode(crypto.getRandomValues(new Uint8Array(32)))
  const expiresAt = new Date(Date.now() + days * 86_400_000)
  const tokenHash = await hashToken(token)
  await db.transaction(async (tx) => {
    await tx.insert(sessions).values({ tokenHash, uid, expiresAt })
    await recordAudit(tx, { action: 'session.opened', accountId: uid, details: { days } })
  })
  return { token, expiresAt }
}

/** A live session (known token, not revoked, not expired), its user and when that user was last confirmed. */
export interface LiveSession {
  id: string
  confirmedAt: Date
  user: User
}

export async function liveSession(db: Db, token: string): Promise<LiveSession | undefined> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined
  const [row] = await db
    .select({ id: sessions.id, confirmedAt: sessions.confirmedAt, user: users })
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
export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await endSessions(db, and(eq(sessions.id, sessionId), isNull(sessions.revokedAt))!, 'unconfirmed')
}

/** Ends every session of a user the identity service no longer has, or has disabled. */
export async function revokeUserSessions(db: Db, uid: string): Promise<void> {
  await endSessions(db, and(eq(sessions.uid, uid), isNull(sessions.revokedAt))!, 'user_disabled')
}

export async function closeSession(db: Db, token: string): Promise<void> {
  await endSessions(db, and(eq(sessions.tokenHash, await hashToken(token)), isNull(sessions.revokedAt))!, 'sign_out')
}

/** Ends the sessions `which` matches, each with its audit row in the same transaction. */
async function endSessions(db: Db, which: SQL, reason: string): Promise<void> {
  await db.transaction(async (tx) => {
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(which)
      .returning({ uid: sessions.uid })
    for (const { uid } of ended)
      await recordAudit(tx, { action: 'session.revoked', accountId: uid, details: { reason } })
  })
}

async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}
