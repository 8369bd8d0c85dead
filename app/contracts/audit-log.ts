/** Contracts of the audit log: what was done to an account and its keys, by whom, from where. */
import * as v from 'valibot'
import { wholeNumberText } from './common'

export const auditActions = [
  'key.created',
  'key.named',
  'key.revealed',
  'key.revoked',
  'key.claimed',
  'key.transferred_out',
  'key.transferred_in',
  'key.controls_changed',
  'key.limit_added',
  'key.limit_removed',
  'purchase.credited',
  'recharge.credited',
  'purchase.refunded',
  'purchase.disputed',
  'alerts.changed',
  'alerts.removed',
  'auto_recharge.on',
  'auto_recharge.threshold',
  'auto_recharge.off',
  'card.saved',
  'billing_details.changed',
  'session.opened',
  'session.revoked',
  'webhook.created',
  'webhook.changed',
  'webhook.deleted',
  'webhook.secret_rotated',
  'key.project_changed',
  'organisation.created',
  'organisation.renamed',
  'organisation.deleted',
  'member.role_changed',
  'member.removed',
  'member.left',
  'invitation.sent',
  'invitation.revoked',
  'invitation.accepted',
  'project.created',
  'project.changed',
  'project.limit_added',
  'project.limit_removed',
  'admin_key.created',
  'admin_key.revoked',
] as const
export type AuditAction = (typeof auditActions)[number]

const cursor = v.pipe(v.string(), v.regex(/^\d{1,18}$/, 'is not a cursor from this API'))

export const auditQuery = v.strictObject({
  num_records: v.optional(wholeNumberText(1, 100), '50'),
  cursor: v.optional(v.pipe(cursor, v.description('`next_cursor` of the previous page.'))),
})

export const auditExportQuery = v.strictObject({
  format: v.optional(v.picklist(['csv', 'json'], 'must be csv or json'), 'csv'),
})

export const auditInput = v.strictObject({
  apiKey: v.optional(v.pipe(v.string(), v.maxLength(200))),
  ...auditQuery.entries,
})

export const auditRow = v.object({
  id: v.string(),
  created_at: v.string(),
  action: v.picklist(auditActions),
  key_id: v.nullable(v.string()),
  actor: v.string(),
  client_address: v.nullable(v.string()),
  request_id: v.nullable(v.string()),
  details: v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.null()])),
})

export const auditAnswer = v.object({
  events: v.array(auditRow),
  next_cursor: v.nullable(v.string()),
  /** Whose events these are: the signed-in owner's account, or the presented key alone. */
  scope: v.picklist(['account', 'key']),
})

export type AuditRow = v.InferOutput<typeof auditRow>
export type AuditPage = v.InferOutput<typeof auditAnswer>
