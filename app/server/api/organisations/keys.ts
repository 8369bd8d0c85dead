/** An organisation's keys (session; `keys.*` in the roles table): its list, a new key in it or a project of it. */
import type * as v from 'valibot'
import type { OrganisationKey, organisationKeyInput } from '~/contracts/organisations'
import { hasAnyKey, shareAccountStatus } from '../../domain/account-keys'
import { issueKey } from '../../domain/keys'
import { organisationKey, organisationKeys, setKeyProject, spendableBalance } from '../../domain/organisation-keys'
import { requireRole } from '../../domain/organisations'
import { projectIn } from '../../domain/projects'
import { OrganisationRefused } from '../../domain/refusals'
import { serverEnv } from '../../env'
import { auditBy } from '../audit/actor'
import { passCaptcha, type Caller } from '../caller'
import { limitVerifiedAttempts } from '../rate-limit'
import { accountOf } from '../account/session'
import { sealer } from '../account/keys'

export async function organisationKeysFor(
  caller: Caller,
  organisationId: string,
): Promise<{ keys: OrganisationKey[] }> {
  const { db, user } = await accountOf(caller)
  return { keys: await organisationKeys(db, user.uid, organisationId) }
}

/**
 * A new key in the organisation (and one of its live projects, if named), under the same captcha and per-address
 * limit as an account's key. In an organisation with a shared balance it spends that balance and starts with
 * nothing of its own; in the personal one it is an account key as before (the account's first comes with the
 * free pack).
 */
export async function createOrganisationKeyFor(
  caller: Caller,
  organisationId: string,
  input: v.InferOutput<typeof organisationKeyInput>,
): Promise<{ api_key: string; key: OrganisationKey }> {
  const { db, user } = await accountOf(caller)
  const { organisation } = await requireRole(db, user.uid, organisationId, 'keys.manage')
  const projectId = input.project_id ?? null
  if (projectId && (await projectIn(db, organisationId, projectId)).archivedAt)
    throw new OrganisationRefused('That project is archived: bring it back first')
  const kind = organisation.personal && !(await hasAnyKey(db, user.uid)) ? 'trial' : 'empty'
  const env = serverEnv()
  await limitVerifiedAttempts(
    `${kind}:addr:${caller.network}`,
    kind === 'trial' ? env.RATE_LIMIT_TRIAL : env.RATE_LIMIT_EMPTY,
    () => passCaptcha(caller, input.captcha, 'new_key'),
  )
  const { apiKey, key } = await issueKey(db, auditBy(caller), kind, {
    // A personal organisation's keys are its owner's account keys; a team's belong to no one person.
    ownerId: organisation.personal ? user.uid : undefined,
    organisationId,
    projectId,
    balanceKeyId: organisation.balanceKeyId,
    name: input.name || undefined,
    seal: sealer(),
  })
  if (organisation.personal) await shareAccountStatus(db, user.uid)
  const [fresh] = (await organisationKeys(db, user.uid, organisationId)).filter((k) => k.key_id === key.id)
  return { api_key: apiKey, key: fresh }
}

export async function setKeyProjectFor(
  caller: Caller,
  keyId: string,
  projectId: string | null,
): Promise<OrganisationKey> {
  const { db, user } = await accountOf(caller)
  const key = await setKeyProject(db, auditBy(caller), user.uid, keyId, projectId)
  return organisationKey(key, await spendableBalance(db, key))
}
