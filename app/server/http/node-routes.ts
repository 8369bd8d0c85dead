import { parseServingConfig } from '~/contracts/serving-config'
import { clientAddress } from './client-address'
import type { ServerEnv } from '../env'
import { errorFields, log } from '../log'
import { nodeCapabilities, type NodeCapability } from '../node-capabilities'
import { errorResponse, HttpError } from './errors'

/**
 * How an edge build hands a request to a Node instance of this app (node-backend.edge.ts). Kept apart from
 * that file so the Node test suite can check it too.
 */

type InferenceSettings = Pick<ServerEnv, 'INFERENCE_ENGINE'> & Partial<Pick<ServerEnv, 'SERVED_MODELS'>>

/**
 * Engines only a Node instance runs: onnx (ONNX Runtime is native code) and use-lite (a worker thread, and
 * weights read from its package folder).
 */
const nodeOnlyEngines = new Set<string>(['onnx', 'use-lite'])

/** Whether any served model runs on a Node-only engine. */
function servesNodeOnly(env: InferenceSettings): boolean {
  if (env.SERVED_MODELS)
    return Object.values(parseServingConfig(env.SERVED_MODELS)).some((e) => nodeOnlyEngines.has(e.engine))
  return nodeOnlyEngines.has(env.INFERENCE_ENGINE)
}

/** The capability that serves `pathname` when the build cannot, in this configuration; undefined: served here. */
export function nodeCapabilityFor(pathname: string, env: InferenceSettings): NodeCapability | undefined {
  // Deep search and search (`/s`) read every page they answer through the reader's fetch.
  if (
    pathname === '/r' ||
    pathname.startsWith('/r/') ||
    pathname === '/s' ||
    pathname.startsWith('/s/') ||
    pathname === '/v1/chat/completions' ||
    pathname === '/v1/responses'
  )
    return 'reader'
  if (pathname === '/v1/bulk-embeddings' || pathname.startsWith('/v1/bulk-embeddings/')) return 'bulk'
  if (/^\/v1\/(files|batches)(\/|$)/.test(pathname)) return 'bulk'
  // The builtin and upstream engines are plain JavaScript and fetch: only onnx and use-lite need Node (the
  // model list too, since it describes those models' engines).
  if (servesNodeOnly(env) && /^\/v1\/((embeddings|rerank|classify|train)\/?|models(\/[^/]*)?)$/.test(pathname))
    return 'embeddings'
  return undefined
}

/** Connection-level headers, and Cloudflare's own, which the platform sets (or refuses) on a subrequest. */
const notForwarded = /^(connection|keep-alive|proxy-.*|te|trailer|transfer-encoding|upgrade|host|cf-.*|x-real-ip)$/i

/**
 * Sends `request` on to the Node instance at `upstream` (its path and query kept, its body streamed) and
 * answers what it answers, streams included. The Node side sees the client's address as the last
 * X-Forwarded-For hop (it runs with TRUST_PROXY=true) and the same request id, so both logs name one request.
 * An upstream that cannot be reached is the gateway's failure: 502 with `{detail}`.
 */
export async function proxyToNode(
  request: Request,
  options: { capability: NodeCapability; upstream: string; requestId: string; env: ServerEnv },
  send: typeof fetch = fetch,
): Promise<Response> {
  const url = new URL(request.url)
  const target = options.upstream.replace(/\/+$/, '') + url.pathname + url.search
  const headers = new Headers()
  for (const [name, value] of request.headers) if (!notForwarded.test(name)) headers.set(name, value)
  const forwardedFor = request.headers.get('x-forwarded-for')
  const client = clientAddress(request, options.env)
  headers.set('x-forwarded-for', forwardedFor ? `${forwardedFor}, ${client}` : client)
  headers.set('x-forwarded-host', url.host)
  headers.set('x-forwarded-proto', url.protocol.replace(/:$/, ''))
  headers.set('x-request-id', options.requestId)
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== null
  try {
    return await send(target, {
      method: request.method,
      headers,
      body: hasBody ? request.body : undefined,
      redirect: 'manual',
      // A request body is streamed on as it arrives (a bulk upload may be 100 MiB).
      ...(hasBody ? { duplex: 'half' } : {}),
    } as RequestInit)
  } catch (error) {
    const { label, variable } = nodeCapabilities[options.capability]
    log('warn', 'node backend unreachable', { capability: options.capability, error: errorFields(error) })
    return errorResponse(new HttpError(502, `The Node backend for ${label} (${variable}) could not be reached`))
  }
}

/** One line per edge isolate saying where each Node-only capability goes, so a missing setting shows in the log. */
export function nodeRoutesSummary(env: ServerEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(nodeCapabilities).map(([name, { variable }]) => {
      const upstream = env[variable]
      const needed = name !== 'embeddings' || servesNodeOnly(env)
      return [
        name,
        !needed ? 'served here' : upstream ? `${variable} ${new URL(upstream).origin}` : `501 (${variable} unset)`,
      ]
    }),
  )
}
