import { WebhookUrlRefused } from '../../domain/refusals'
import { hostOf, isPublicAddress } from '../reader/address-policy'
import type * as NodeAddress from './address'

/**
 * A Worker has no resolver of its own: an address written in the URL is checked here, a name is accepted and
 * checked by the Node instance that delivers, before every attempt (./address.ts), which is where it counts.
 */
export const checkedWebhookAddress: typeof NodeAddress.checkedWebhookAddress = async (url, env) => {
  const { host, isAddress } = hostOf(url)
  if (isAddress && !env.WEBHOOKS_ALLOW_PRIVATE_NETWORKS && !isPublicAddress(host))
    throw new WebhookUrlRefused(`Refused to send webhooks to ${url.host}: it is not a public address`)
  if (!isAddress && /^localhost$|\.localhost$/i.test(host) && !env.WEBHOOKS_ALLOW_PRIVATE_NETWORKS)
    throw new WebhookUrlRefused(`Refused to send webhooks to ${url.host}: it is not a public address`)
  return { address: isAddress ? host : '', family: host.includes(':') ? 6 : 4 }
}
