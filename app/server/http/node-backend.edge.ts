import { NeedsNode } from '../domain/refusals'
import { log } from '../log'
import { nodeCapabilities } from '../node-capabilities'
import { errorResponse } from './errors'
import type * as NodeBackend from './node-backend'
import { nodeCapabilityFor, nodeRoutesSummary, proxyToNode } from './node-routes'

let announced = false

/**
 * What this Worker cannot serve goes to the Node instance its setting names (READER_UPSTREAM,
 * EMBEDDINGS_UPSTREAM, BULK_UPSTREAM), or is answered 501 with `{detail}` naming the setting.
 */
export const routeToNode: typeof NodeBackend.routeToNode = async (request, pathname, env, requestId) => {
  if (!announced) {
    announced = true
    log('info', 'edge build: Node-only capabilities', nodeRoutesSummary(env))
  }
  const capability = nodeCapabilityFor(pathname, env)
  if (!capability) return undefined
  const upstream = env[nodeCapabilities[capability].variable]
  if (!upstream) return errorResponse(new NeedsNode(capability))
  return proxyToNode(request, { capability, upstream, requestId, env })
}
