import type { ServerEnv } from '../../env'
import { WebhookUrlRefused } from '../../domain/refusals'
import { hostOf, isPublicAddress } from '../reader/address-policy'
import { createResolver, type HostResolver, type ResolvedAddress } from '../reader/resolve'

export type { ResolvedAddress }

type AddressEnv = Pick<ServerEnv, 'WEBHOOKS_ALLOW_PRIVATE_NETWORKS' | 'READER_DNS_SERVERS'>

let resolver: { servers: string; resolve: HostResolver } | undefined

function resolverFor(servers: string[] | undefined): HostResolver {
  const key = (servers ?? []).join(',')
  if (resolver?.servers !== key) resolver = { servers: key, resolve: createResolver(servers) }
  return resolver.resolve
}

/**
 * The address a webhook is sent to, held to the reader's rules: the host resolved here (every address it has
 * must be public unicast unless WEBHOOKS_ALLOW_PRIVATE_NETWORKS), and the connection then pinned to the address
 * checked. Asked at creation and again before every attempt, so a name that later resolves elsewhere (DNS
 * rebinding) is refused at the attempt. Unlike the reader, this site's own origins are no exception.
 */
export async function checkedWebhookAddress(url: URL, env: AddressEnv): Promise<ResolvedAddress> {
  const { host, isAddress } = hostOf(url)
  let addresses: ResolvedAddress[]
  try {
    addresses = isAddress
      ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
      : await resolverFor(env.READER_DNS_SERVERS)(host)
  } catch (error) {
    throw new WebhookUrlRefused(`The webhook URL's host ${url.hostname} does not resolve`, { cause: error })
  }
  if (!env.WEBHOOKS_ALLOW_PRIVATE_NETWORKS && addresses.some(({ address }) => !isPublicAddress(address)))
    throw new WebhookUrlRefused(`Refused to send webhooks to ${url.host}: it is not a public address`)
  return addresses[0]
}
