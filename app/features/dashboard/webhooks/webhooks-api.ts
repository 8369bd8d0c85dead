import { queryOptions } from '@tanstack/react-query'
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from '~/contracts/webhooks'
import { restCall } from '~/lib/rest-call'

/** The session's webhook calls (REST, same origin: the session cookie goes along). */
const base = 'account/webhooks'
const one = (id: string) => `${base}/${encodeURIComponent(id)}`

export type WithSecret = WebhookEndpoint & { secret: string }

export const webhooksApi = {
  list: () => restCall<{ endpoints: WebhookEndpoint[] }>('GET', base),
  create: (json: { url: string; events: WebhookEventType[]; description: string | null }) =>
    restCall<WithSecret>('POST', base, { json }),
  update: (
    id: string,
    json: { url?: string; events?: WebhookEventType[]; description?: string | null; disabled?: boolean },
  ) => restCall<WebhookEndpoint>('PATCH', one(id), { json }),
  remove: (id: string) => restCall<{ detail: string }>('DELETE', one(id)),
  rotate: (id: string) => restCall<WithSecret>('POST', `${one(id)}/rotate_secret`),
  test: (id: string) => restCall<WebhookDelivery>('POST', `${one(id)}/test`),
  deliveries: (id: string) => restCall<{ deliveries: WebhookDelivery[] }>('GET', `${one(id)}/deliveries?limit=25`),
  replay: (id: string, deliveryId: string) =>
    restCall<WebhookDelivery>('POST', `${one(id)}/deliveries/${encodeURIComponent(deliveryId)}/replay`),
}

export const webhookKeys = {
  endpoints: ['webhooks', 'endpoints'] as const,
  deliveries: (id: string) => ['webhooks', 'deliveries', id] as const,
}

export const endpointsQuery = (enabled: boolean) =>
  queryOptions({ queryKey: webhookKeys.endpoints, queryFn: () => webhooksApi.list(), enabled, staleTime: 0 })

export const deliveriesQuery = (id: string) =>
  queryOptions({ queryKey: webhookKeys.deliveries(id), queryFn: () => webhooksApi.deliveries(id), staleTime: 0 })
