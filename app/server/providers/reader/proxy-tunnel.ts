import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { connect as tlsConnect } from 'node:tls'
import { SocksClient } from 'socks'
import { PageNotRead } from '../../domain/refusals'
import type { ProxySetting } from './proxy-url'
import type { ResolvedAddress } from './resolve'

/** The proxy as the reader reaches it: its setting, and the address checked for it (the connection is pinned to it). */
export interface CheckedProxy {
  proxy: ProxySetting
  address: ResolvedAddress
  /** Answers every lookup of the proxy's name with `address`. */
  lookup: LookupFunction
}

/** How to send one request through a proxy: with `node:http` or `node:https`, and these options. */
export interface ProxiedRequest {
  send: typeof httpRequest
  options: RequestOptions
}

const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80))
const bracketed = (address: string) => (address.includes(':') ? `[${address}]` : address)

function basicAuth({ username, password }: ProxySetting): Record<string, string> {
  if (username === undefined) return {}
  const token = Buffer.from(`${username}:${password ?? ''}`).toString('base64')
  return { 'proxy-authorization': `Basic ${token}` }
}

/** Settles with `promise`, or rejects when `signal` aborts first (the tunnel's socket is then destroyed). */
function abortable<T extends Duplex>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (socket) => {
        signal.removeEventListener('abort', onAbort)
        if (signal.aborted) socket.destroy()
        else resolve(socket)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/** A SOCKS5 tunnel to the page's checked address: the proxy connects where the reader checked, nowhere else. */
async function socksTunnel(checked: CheckedProxy, url: URL, target: ResolvedAddress, timeoutMs: number) {
  const { proxy, address } = checked
  try {
    const { socket } = await SocksClient.createConnection({
      command: 'connect',
      proxy: { host: address.address, port: proxy.port, type: 5, userId: proxy.username, password: proxy.password },
      destination: { host: target.address, port: portOf(url) },
      timeout: timeoutMs,
    })
    return socket
  } catch (error) {
    throw new PageNotRead('unreachable', `Could not reach ${url.host} through the proxy ${proxy.origin}`, {
      cause: error,
    })
  }
}

/** An HTTP CONNECT tunnel to the page's checked address (what an https page needs from an HTTP proxy). */
function connectTunnel(checked: CheckedProxy, url: URL, target: ResolvedAddress, signal: AbortSignal) {
  const { proxy } = checked
  const authority = `${bracketed(target.address)}:${portOf(url)}`
  return new Promise<Socket>((resolve, reject) => {
    const request = (proxy.protocol === 'https:' ? httpsRequest : httpRequest)({
      host: proxy.host,
      port: proxy.port,
      method: 'CONNECT',
      path: authority,
      headers: { host: authority, ...basicAuth(proxy) },
      agent: false,
      lookup: checked.lookup,
      signal,
    })
    request.once('connect', (response: IncomingMessage, socket: Socket) => {
      if (response.statusCode === 200) return resolve(socket)
      socket.destroy()
      reject(
        new PageNotRead(
          'unreachable',
          `The proxy ${proxy.origin} refused to connect to ${url.host} (HTTP ${response.statusCode})`,
        ),
      )
    })
    request.once('response', (response: IncomingMessage) => {
      response.destroy()
      reject(new PageNotRead('unreachable', `The proxy ${proxy.origin} does not tunnel (HTTP ${response.statusCode})`))
    })
    request.once('error', (error) =>
      reject(
        signal.aborted
          ? error
          : new PageNotRead('unreachable', `Could not connect to the proxy ${proxy.origin}`, { cause: error }),
      ),
    )
    request.end()
  })
}

/**
 * `request`'s options sent through the proxy. SOCKS5, and HTTP(S) proxies for https pages, tunnel to the
 * page's checked address (TLS to the page inside the tunnel, verified against its host name); an http page
 * through an HTTP(S) proxy is asked for by its absolute URL, the proxy connecting to it by name. The proxy
 * itself is reached only at its checked address.
 */
export async function proxiedRequest(
  checked: CheckedProxy,
  url: URL,
  target: ResolvedAddress,
  base: RequestOptions,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ProxiedRequest> {
  const { proxy } = checked
  if (proxy.protocol !== 'socks5:' && url.protocol === 'http:')
    return {
      send: proxy.protocol === 'https:' ? httpsRequest : httpRequest,
      options: {
        ...base,
        host: proxy.host,
        port: proxy.port,
        path: url.href,
        lookup: checked.lookup,
        headers: { ...base.headers, host: url.host, ...basicAuth(proxy) },
      },
    }
  const tunnel = await abortable(
    proxy.protocol === 'socks5:'
      ? socksTunnel(checked, url, target, timeoutMs)
      : connectTunnel(checked, url, target, signal),
    signal,
  )
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  const socket: Duplex =
    url.protocol === 'https:'
      ? tlsConnect({ socket: tunnel, servername: isIP(hostname) ? undefined : hostname, host: hostname })
      : tunnel
  const { agent: _agent, lookup: _lookup, ...rest } = base
  // No agent: the request runs on the tunnel `createConnection` hands it, and nothing is pooled.
  return {
    send: httpRequest,
    options: { ...rest, headers: { ...base.headers, host: url.host }, createConnection: () => socket },
  }
}
