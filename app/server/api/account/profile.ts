import * as v from 'valibot'
import { count, eq, sql } from 'drizzle-orm'
import type { profileInput, userInfoInput, UserAnswer } from '~/contracts/account'
import { getDb } from '../../db/client'
import { contactLeads } from '../../db/schema'
import { ensureUser, updateProfile, userAnswer } from '../../domain/users'
import type { Caller } from '../caller'
import { identityOf } from './identity'
import { accountOf, optionalAccountOf } from './session'

/**
 * Spec §7 account service `getUserInfo`: the stored user behind the bearer ID token. A first call makes the
 * user from the token and the profile the client sent; later calls answer what is stored.
 */
export async function getUserInfoFor(caller: Caller, body: v.InferOutput<typeof userInfoInput>): Promise<UserAnswer> {
  const identity = await identityOf(caller)
  const user = await ensureUser(await getDb(), identity, body)
  return userAnswer(user)
}

/** The session's user, or null: asking is not an error, since an anonymous dashboard asks on every load. */
export async function viewerFor(caller: Caller): Promise<UserAnswer | null> {
  const account = await optionalAccountOf(caller)
  return account ? userAnswer(account.user) : null
}

export async function updateProfileFor(
  caller: Caller,
  fields: v.InferOutput<typeof profileInput>,
): Promise<UserAnswer> {
  const { db, user } = await accountOf(caller)
  return userAnswer(await updateProfile(db, user.uid, fields))
}

/**
 * Spec §7 tickets viewer: how many requests the user has filed with sales and support (the contact form),
 * counted by the account's e-mail, and only once the identity service has verified that address: anyone can
 * sign up with someone else's address, and must not learn what was filed from it. Leads carry no user id, so
 * an unverified address counts none.
 */
export async function ticketsFor(caller: Caller): Promise<{ totalQuantity: number }> {
  const identity = await identityOf(caller)
  if (!identity.email || !identity.emailVerified) return { totalQuantity: 0 }
  const [row] = await (
    await getDb()
  )
    .select({ n: count() })
    .from(contactLeads)
    .where(eq(sql`lower(${contactLeads.email})`, identity.email.toLowerCase()))
  return { totalQuantity: Number(row?.n ?? 0) }
}
