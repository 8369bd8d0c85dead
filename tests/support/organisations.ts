import { randomUUID } from 'node:crypto'
import type { OrganisationRole } from '~/contracts/organisations'
import { sealer } from '~/server/api/account/keys'
import type { Db } from '~/server/db/types'
import { bySystem } from '~/server/domain/audit'
import { issueKey } from '~/server/domain/keys'
import { applyEntry } from '~/server/domain/ledger'
import { createOrganisation } from '~/server/domain/organisations'
import { openSession } from '~/server/domain/sessions'
import { ensureUser } from '~/server/domain/users'

/** A signed-in account (its e-mail verified) and the session cookie a browser would send for it. */
export async function signedInAccount(db: Db, name = 'someone') {
  const uid = `uid-${name}-${randomUUID().slice(0, 8)}`
  const email = `${uid}@example.com`
  const user = await ensureUser(db, { uid, email, emailVerified: true })
  const { token } = await openSession(db, bySystem, uid, 1)
  const cookie = `session=${token}`
  return { uid, email, user, cookie, init: { headers: { cookie } } }
}

/** An organisation made by `uid` (its owner) with `balance` tokens bought for its shared balance. */
export async function organisationWithBalance(db: Db, uid: string, balance: number, name = 'Team') {
  const organisation = await createOrganisation(db, bySystem, uid, name)
  if (balance > 0)
    await applyEntry(db, {
      keyId: organisation.balanceKeyId!,
      amount: balance,
      type: 'purchase',
      externalRef: `purchase:${randomUUID()}`,
    })
  return { id: organisation.id, balanceKeyId: organisation.balanceKeyId! }
}

/** A key of the organisation, drawing on its shared balance (sealed, so its members may show it). */
export async function organisationKey(db: Db, organisation: { id: string; balanceKeyId: string }) {
  const { apiKey, key } = await issueKey(db, bySystem, 'empty', {
    organisationId: organisation.id,
    balanceKeyId: organisation.balanceKeyId,
    seal: sealer(),
  })
  return { apiKey, id: key.id }
}

export const roles: OrganisationRole[] = ['owner', 'admin', 'developer', 'billing', 'viewer']
