/**
 * Contracts of the Administration API (`/v1/organization/…`) in OpenAI's shapes, so clients written for its
 * Administration API (the `openai` SDK's `client.admin.organization`) read them: lists are
 * `{object: "list", data, first_id, last_id, has_more}` paged with `after` and `limit`, times unix seconds.
 */
import * as v from 'valibot'
import { wholeNumberText } from './common'
import { invitationInput, memberRoleInput, organisationRoles, projectInput } from './organisations'
import { spendLimitPeriods } from './spend-limits'

export const listQuery = v.strictObject({
  after: v.optional(v.pipe(v.string(), v.maxLength(200), v.description('The `last_id` of the previous page.'))),
  limit: v.optional(wholeNumberText(1, 100), '20'),
})

export const projectsListQuery = v.strictObject({
  ...listQuery.entries,
  include_archived: v.optional(v.picklist(['true', 'false'], 'must be true or false'), 'false'),
})

/** A page of `item`s. */
export const listOf = <T extends v.GenericSchema>(item: T) =>
  v.object({
    object: v.literal('list'),
    data: v.array(item),
    first_id: v.nullable(v.string()),
    last_id: v.nullable(v.string()),
    has_more: v.boolean(),
  })

const deleted = <T extends string>(object: T) =>
  v.object({ object: v.literal(object), id: v.string(), deleted: v.boolean() })

const role = v.picklist(organisationRoles)

export const adminUser = v.object({
  object: v.literal('organization.user'),
  id: v.string(),
  name: v.nullable(v.string()),
  email: v.nullable(v.string()),
  role,
  added_at: v.number(),
})
export const adminUserDeleted = deleted('organization.user.deleted')
export const adminUserRoleInput = memberRoleInput

export const adminInvite = v.object({
  object: v.literal('organization.invite'),
  id: v.string(),
  email: v.string(),
  role,
  status: v.picklist(['pending', 'accepted', 'revoked', 'expired']),
  invited_at: v.number(),
  expires_at: v.number(),
})
export const adminInviteDeleted = deleted('organization.invite.deleted')
export const adminInviteInput = invitationInput

export const adminProject = v.object({
  object: v.literal('organization.project'),
  id: v.string(),
  name: v.string(),
  created_at: v.number(),
  archived_at: v.nullable(v.number()),
  status: v.picklist(['active', 'archived']),
})
export const adminProjectInput = projectInput
export const adminProjectChangeInput = v.strictObject({ name: projectInput.entries.name })

/** A key's spend limits as one object: at most one token and one dollar limit, in one period. */
export const adminLimitsInput = v.pipe(
  v.strictObject({
    period: v.picklist(spendLimitPeriods, 'must be day, week or month'),
    tokens: v.optional(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'))),
    amount_usd: v.optional(v.pipe(v.number(), v.minValue(0.000001, 'must be more than 0'))),
  }),
  v.check((l) => l.tokens !== undefined || l.amount_usd !== undefined, 'must set tokens, amount_usd or both'),
)

export const adminKeyLimit = v.object({
  id: v.string(),
  period: v.picklist(spendLimitPeriods),
  tokens: v.nullable(v.number()),
  amount_usd: v.nullable(v.number()),
  used_tokens: v.number(),
  resets_at: v.number(),
})

export const adminProjectKey = v.object({
  object: v.literal('organization.project.api_key'),
  id: v.string(),
  name: v.nullable(v.string()),
  redacted_value: v.string(),
  created_at: v.number(),
  last_used_at: v.nullable(v.number()),
  owner_project_access: v.picklist(['active', 'inactive']),
  project_id: v.string(),
  limits: v.array(adminKeyLimit),
})
export const adminProjectKeyWithValue = v.object({ ...adminProjectKey.entries, value: v.string() })
export const adminProjectKeyDeleted = deleted('organization.project.api_key.deleted')
export const adminProjectKeyInput = v.strictObject({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'is required'), v.maxLength(60)),
  limits: v.optional(adminLimitsInput),
})
/** Replaces the key's limits; `null` removes them all. */
export const adminProjectKeyUpdate = v.strictObject({ limits: v.nullable(adminLimitsInput) })

export const adminAuditEvent = v.object({
  object: v.literal('organization.audit_log'),
  id: v.string(),
  type: v.string(),
  effective_at: v.number(),
  actor: v.object({ type: v.picklist(['session', 'api_key', 'system']), id: v.string() }),
  api_key_id: v.nullable(v.string()),
  details: v.record(v.string(), v.unknown()),
})

export type AdminUser = v.InferOutput<typeof adminUser>
export type AdminInvite = v.InferOutput<typeof adminInvite>
export type AdminProject = v.InferOutput<typeof adminProject>
export type AdminProjectKey = v.InferOutput<typeof adminProjectKey>
export type AdminKeyLimit = v.InferOutput<typeof adminKeyLimit>
export type AdminAuditEvent = v.InferOutput<typeof adminAuditEvent>
export type AdminLimitsInput = v.InferOutput<typeof adminLimitsInput>
export type ListQuery = v.InferOutput<typeof listQuery>
export interface List<T> {
  object: 'list'
  data: T[]
  first_id: string | null
  last_id: string | null
  has_more: boolean
}
