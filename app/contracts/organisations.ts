/** Contracts of organisations: members and their roles, invitations, projects and the organisation's keys. */
import * as v from 'valibot'
import { accountKeySchema } from './account'
import { isSingleLine, isStorableText } from './common'

/** From most to least: what each may do is `can(role, action)` (app/server/domain/organisation-roles.ts). */
export const organisationRoles = ['owner', 'admin', 'developer', 'billing', 'viewer'] as const
export type OrganisationRole = (typeof organisationRoles)[number]

const name = (max: number) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'is required'),
    v.maxLength(max, `must be at most ${max} characters`),
    v.check(isSingleLine, 'must be a single line'),
    v.check(isStorableText, 'contains a character that cannot be stored'),
  )

const uuid = (what: string) => v.pipe(v.string(), v.uuid(`must be ${what} id`))
export const organisationIdParam = uuid('an organisation')
export const projectIdParam = uuid('a project')
export const invitationIdParam = uuid('an invitation')
export const memberIdParam = v.pipe(v.string(), v.minLength(1), v.maxLength(128))

const role = v.picklist(organisationRoles, `must be one of ${organisationRoles.join(', ')}`)

export const organisationNameInput = v.strictObject({ name: name(100) })

export const organisationSchema = v.object({
  id: v.string(),
  name: v.string(),
  personal: v.boolean(),
  /** The caller's role in it. */
  role,
  /** The shared balance its keys draw on; null for a personal organisation (its keys keep their own) or a role that may not see it. */
  balance: v.nullable(v.number()),
  created_at: v.string(),
})
export const organisationsAnswer = v.object({ organisations: v.array(organisationSchema) })

export const memberSchema = v.object({
  uid: v.string(),
  email: v.nullable(v.string()),
  display_name: v.nullable(v.string()),
  role,
  joined_at: v.string(),
})
export const membersAnswer = v.object({ members: v.array(memberSchema) })
export const memberRoleInput = v.strictObject({ role })

export const invitationInput = v.strictObject({
  email: v.pipe(v.string(), v.trim(), v.maxLength(254), v.email('must be an e-mail address')),
  role,
})
export const invitationSchema = v.object({
  id: v.string(),
  email: v.string(),
  role,
  created_at: v.string(),
  expires_at: v.string(),
  status: v.picklist(['pending', 'accepted', 'revoked', 'expired']),
})
export const invitationsAnswer = v.object({ invitations: v.array(invitationSchema) })
export const acceptInvitationInput = v.strictObject({
  token: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(200)),
})

/** What an invitation link offers, read by its holder before accepting. */
export const invitationPreviewSchema = v.object({
  organisation: v.string(),
  role,
  email: v.string(),
  expires_at: v.string(),
})

export const projectInput = v.strictObject({ name: name(100) })
export const projectChangeInput = v.strictObject({
  name: v.optional(name(100)),
  /** true archives the project (its keys keep working), false brings it back. */
  archived: v.optional(v.boolean()),
})
export const projectSchema = v.object({
  id: v.string(),
  name: v.string(),
  created_at: v.string(),
  archived_at: v.nullable(v.string()),
})
export const projectsAnswer = v.object({ projects: v.array(projectSchema) })

export const organisationKeySchema = v.object({
  ...accountKeySchema.entries,
  project_id: v.nullable(v.string()),
  /** Whether it spends the organisation's shared balance (`balance` is then that balance) or its own. */
  shared_balance: v.boolean(),
})
export const organisationKeysAnswer = v.object({ keys: v.array(organisationKeySchema) })
export const organisationKeyInput = v.strictObject({
  name: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(60), v.check(isSingleLine)))),
  project_id: v.optional(v.nullable(projectIdParam)),
  captcha: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(8192)),
})
export const keyProjectInput = v.strictObject({ project_id: v.nullable(projectIdParam) })

export type Organisation = v.InferOutput<typeof organisationSchema>
export type Member = v.InferOutput<typeof memberSchema>
export type Invitation = v.InferOutput<typeof invitationSchema>
export type InvitationPreview = v.InferOutput<typeof invitationPreviewSchema>
export type Project = v.InferOutput<typeof projectSchema>
export type OrganisationKey = v.InferOutput<typeof organisationKeySchema>
