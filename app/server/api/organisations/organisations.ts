/** Organisations for the signed-in account (session): its list, making one, renaming and deleting (README "Organisations"). */
import type * as v from 'valibot'
import type { Organisation, organisationNameInput } from '~/contracts/organisations'
import {
  createOrganisation,
  deleteOrganisation,
  organisationAnswer,
  organisationsOf,
  renameOrganisation,
} from '../../domain/organisations'
import { OrganisationNotFound } from '../../domain/refusals'
import { auditBy } from '../audit/actor'
import type { Caller } from '../caller'
import { accountOf } from '../account/session'

type NameInput = v.InferOutput<typeof organisationNameInput>

export async function organisationsFor(caller: Caller): Promise<{ organisations: Organisation[] }> {
  const { db, user } = await accountOf(caller)
  return { organisations: await organisationsOf(db, user.uid) }
}

/** A new organisation with its own shared balance (empty until its billing buys one); the caller is its owner. */
export async function createOrganisationFor(caller: Caller, { name }: NameInput): Promise<Organisation> {
  const { db, user } = await accountOf(caller)
  return organisationAnswer(await createOrganisation(db, auditBy(caller), user.uid, name), 'owner', 0)
}

export async function renameOrganisationFor(caller: Caller, id: string, { name }: NameInput): Promise<Organisation> {
  const { db, user } = await accountOf(caller)
  return renameOrganisation(db, auditBy(caller), user.uid, id, name)
}

export async function deleteOrganisationFor(caller: Caller, id: string): Promise<{ detail: string }> {
  const { db, user } = await accountOf(caller)
  await deleteOrganisation(db, auditBy(caller), user.uid, id)
  return { detail: 'Organisation deleted' }
}

/** One organisation of the account's, as the list shows it. */
export async function organisationFor(caller: Caller, id: string): Promise<Organisation> {
  const { db, user } = await accountOf(caller)
  const found = (await organisationsOf(db, user.uid)).find((o) => o.id === id)
  if (!found) throw new OrganisationNotFound()
  return found
}
