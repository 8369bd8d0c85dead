/** `/v1/organization/webhooks`: the session routes' endpoint shapes, in the admin key's organisation. */
import * as v from 'valibot'
import { listOf } from './admin-api'
import { createWebhookInput, webhookDeliverySchema, webhookEndpointSchema } from './webhooks'

/** No `organisation_id`: the endpoint is the admin key's organisation's. */
export const adminWebhookInput = v.omit(createWebhookInput, ['organisation_id'])
export const adminWebhooksAnswer = listOf(webhookEndpointSchema)
export const adminWebhookDeliveriesAnswer = listOf(webhookDeliverySchema)
