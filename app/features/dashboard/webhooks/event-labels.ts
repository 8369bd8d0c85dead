import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { WebhookEventType } from '~/contracts/webhooks'

/** Each event an endpoint can ask for, as people read it (its type name is shown beside it). */
export const eventLabels: Record<WebhookEventType, MessageDescriptor> = {
  'balance.low': msg`A balance fell below an alert threshold`,
  'limit.reached': msg`A key reached a spending limit`,
  'bulk_job.completed': msg`A bulk embedding job completed`,
  'batch.completed': msg`A batch completed`,
  'payment.succeeded': msg`A payment went through`,
  'key.created': msg`A key was created`,
  'key.revoked': msg`A key was revoked`,
  'member.joined': msg`A member joined the organisation`,
}
