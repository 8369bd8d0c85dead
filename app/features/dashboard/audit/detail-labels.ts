import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'

/**
 * The names of what an audit event records (`details`), as people read them. A name the server adds later and
 * this list does not know yet is shown as it is stored, never hidden.
 */
export const auditDetailLabels: Record<string, MessageDescriptor> = {
  kind: msg`Kind`,
  name: msg`Name`,
  daily_cap: msg`Daily cap`,
  monthly_cap: msg`Monthly cap`,
  allowed_products: msg`Products allowed`,
  allowed_models: msg`Models allowed`,
  expires_at: msg`Expires`,
  allowed_networks: msg`Addresses allowed`,
  brand: msg`Card`,
  last4: msg`Card ending`,
  threshold: msg`Threshold`,
  thresholds: msg`Thresholds`,
  price_id: msg`Pack`,
  purchase_id: msg`Purchase`,
  tokens: msg`Tokens`,
  tokens_taken: msg`Tokens taken back`,
  tokens_owed: msg`Tokens owed`,
  amount: msg`Amount`,
  currency: msg`Currency`,
  auto_recharge_on: msg`Auto-recharge on`,
  transfer_id: msg`Transfer`,
  to: msg`To key`,
  from: msg`From key`,
  by: msg`Revoked by`,
  days: msg`Session days`,
  reason: msg`Reason`,
}

/** Stored words that are values of a detail (`kind: trial`, `by: transfer`, a session's end), as people read them. */
export const auditValueLabels: Record<string, MessageDescriptor> = {
  trial: msg`trial key`,
  empty: msg`empty key`,
  transfer: msg`a balance transfer`,
  sign_out: msg`signed out`,
  unconfirmed: msg`sign-in not confirmed`,
  user_disabled: msg`account disabled`,
  tokens_revoked: msg`password changed or reset`,
}

/** Details whose value is an id (shown in a monospace font, broken anywhere to fit). */
export const auditIdDetails = new Set(['purchase_id', 'transfer_id', 'to', 'from', 'price_id'])

/** Details whose value counts tokens (shown with the locale's digit grouping). */
export const auditTokenDetails = new Set([
  'daily_cap',
  'monthly_cap',
  'threshold',
  'tokens',
  'tokens_taken',
  'tokens_owed',
])
