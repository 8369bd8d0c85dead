import { eq, sql } from 'drizzle-orm'
import type { UserAnswer } from '~/contracts/account'
import { users } from '../db/schema'
import type { Db } from '../db/types'
import { ensurePersonalOrganisation } from './organisations'

export type User = typeof users.$inferSelect

/** What a verified ID token says about the user (the identity provider's check is done before this). */
export interface VerifiedIdentity {
  uid: string
  email?: string
  /** Whether the identity service has verified `email` (an invitation is accepted only with a verified one). */
  emailVerified?: boolean
  name?: string
  picture?: string
}

export interface ProfileFields {
  displayName?: string | null
  photoURL?: string | null
  preferences?: Record<string, string | number | boolean | null>
  notificationEmail?: string | null
}

/**
 * The stored user behind a verified identity, made on first sign-in from the token and what the client sent.
 * Afterwards the stored profile wins (it is what follows the user between devices); only the e-mail (and
 * whether it is verified), which the identity service owns, is refreshed from the token.
 */
export async function ensureUser(db: Db, identity: VerifiedIdentity, initial: ProfileFields = {}): Promise<User> {
  const [row] = await db
    .insert(users)
    .values({
      uid: identity.uid,
      email: identity.email ?? null,
      emailVerified: identity.emailVerified ?? false,
      displayName: initial.displayName ?? identity.name ?? null,
      photoUrl: initial.photoURL ?? identity.picture ?? null,
      preferences: initial.preferences ?? {},
    })
    .onConflictDoUpdate({
      target: users.uid,
      set: {
        email: sql`coalesce(excluded.email, ${users.email})`,
        emailVerified: sql`case when excluded.email is null then ${users.emailVerified} else excluded.email_verified end`,
      },
    })
    .returning()
  // Every account has its personal organisation, an account made before organisations from its next sign-in.
  await ensurePersonalOrganisation(db, row.uid)
  return row
}

export async function findUser(db: Db, uid: string): Promise<User | undefined> {
  const [row] = await db.select().from(users).where(eq(users.uid, uid))
  return row
}

export async function updateProfile(db: Db, uid: string, fields: ProfileFields): Promise<User> {
  const [row] = await db
    .update(users)
    .set({
      ...(fields.displayName !== undefined ? { displayName: fields.displayName } : {}),
      ...(fields.photoURL !== undefined ? { photoUrl: fields.photoURL } : {}),
      ...(fields.notificationEmail !== undefined ? { notificationEmail: fields.notificationEmail } : {}),
      // Merged, so a device that knows only some settings does not erase the others.
      ...(fields.preferences
        ? { preferences: sql`${users.preferences} || ${JSON.stringify(fields.preferences)}::jsonb` }
        : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(users.uid, uid))
    .returning()
  return row
}

/** Spec §3 User, as the account service answers it. */
export function userAnswer(user: User): UserAnswer {
  return {
    uid: user.uid,
    displayName: user.displayName,
    email: user.email,
    photoURL: user.photoUrl,
    preferences: user.preferences,
    notificationEmail: user.notificationEmail,
  }
}
