import type * as NodeSocket from './socket-address'

/**
 * A Worker sees no socket: Cloudflare names the client in CF-Connecting-IP, which it sets on every request
 * and a client cannot override.
 */
export const socketAddress: typeof NodeSocket.socketAddress = (request) =>
  request.headers.get('cf-connecting-ip') ?? undefined
