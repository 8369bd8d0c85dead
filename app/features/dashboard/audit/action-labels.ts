import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { AuditAction } from '~/contracts/audit-log'

/** Each recorded change as people read it. */
export const auditActionLabels: Record<AuditAction, MessageDescriptor> = {
  'key.created': msg`Key created`,
  'key.named': msg`Key renamed`,
  'key.revealed': msg`Key shown`,
  'key.revoked': msg`Key revoked`,
  'key.claimed': msg`Key added to the account`,
  'key.transferred_out': msg`Balance transferred out`,
  'key.transferred_in': msg`Balance transferred in`,
  'key.controls_changed': msg`Key controls changed`,
  'purchase.credited': msg`Tokens bought`,
  'recharge.credited': msg`Auto-recharge bought tokens`,
  'purchase.refunded': msg`Purchase refunded`,
  'purchase.disputed': msg`Purchase disputed`,
  'alerts.changed': msg`Balance alerts changed`,
  'alerts.removed': msg`Balance alerts removed`,
  'auto_recharge.on': msg`Auto-recharge turned on`,
  'auto_recharge.threshold': msg`Auto-recharge threshold changed`,
  'auto_recharge.off': msg`Auto-recharge turned off`,
  'card.saved': msg`Card saved`,
  'billing_details.changed': msg`Billing details changed`,
  'session.opened': msg`Signed in`,
  'session.revoked': msg`Session ended`,
}
