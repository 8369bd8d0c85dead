/** Contracts of Administration API keys (`sk-admin-…`): made by an organisation's owner, shown once. */
import * as v from 'valibot'
import { organisationIdParam } from './organisations'
import { singleLine } from './common'

export const ADMIN_KEY_PREFIX = 'sk-admin-'

export const adminKeyInput = v.strictObject({
  organisation_id: v.optional(organisationIdParam),
  name: v.pipe(singleLine(100), v.minLength(1, 'must not be empty')),
})

export const adminKeysQuery = v.strictObject({ organisation_id: v.optional(organisationIdParam) })

export const adminKeyIdParam = v.pipe(v.string(), v.uuid())

export const adminKeySchema = v.object({
  object: v.literal('organization.admin_api_key'),
  id: v.string(),
  organisation_id: v.string(),
  name: v.string(),
  redacted_value: v.string(),
  created_by: v.string(),
  created_at: v.number(),
  last_used_at: v.nullable(v.number()),
  revoked_at: v.nullable(v.number()),
})

export const adminKeysAnswer = v.object({ object: v.literal('list'), data: v.array(adminKeySchema) })
export const adminKeyWithValueAnswer = v.object({ ...adminKeySchema.entries, value: v.string() })

export type AdminKey = v.InferOutput<typeof adminKeySchema>
