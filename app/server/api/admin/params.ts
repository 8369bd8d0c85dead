import * as v from 'valibot'
import { KeyIdNotFound, OrganisationItemNotFound } from '../../domain/refusals'

const uuid = v.pipe(v.string(), v.uuid())
const memberId = v.pipe(v.string(), v.minLength(1), v.maxLength(128))

/** A path id of the wrong shape names nothing: 404, as another organisation's does (never a failed query). */
export function pathId(params: Record<string, string>, name: 'userId' | 'inviteId' | 'projectId' | 'keyId'): string {
  const parsed = v.safeParse(name === 'userId' ? memberId : uuid, params[name])
  if (parsed.success) return parsed.output
  if (name === 'keyId') throw new KeyIdNotFound()
  throw new OrganisationItemNotFound(name === 'userId' ? 'member' : name === 'inviteId' ? 'invitation' : 'project')
}
