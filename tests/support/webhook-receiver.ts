import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { bySystem } from '~/server/domain/audit'
import { openSession } from '~/server/domain/sessions'
import { ensureUser } from '~/server/domain/users'
import type { Db } from '~/server/db/types'
import { call } from './api'

export interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: string
}

/** How the receiver answers the next request: a status, or `hang` (never answers, as a stuck server). */
export type Behaviour = number | 'hang'

/**
 * A webhook receiver on loopback: records every request, and answers each with the next behaviour queued for
 * its path (else the path's default, else 200), so endpoints of one file on their own paths do not interfere.
 */
export async function startReceiver() {
  const received: Received[] = []
  const queues = new Map<string, Behaviour[]>()
  const defaults = new Map<string, Behaviour>()
  const hanging = new Set<ServerResponse>()
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const path = request.url ?? '/'
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString() })
      const behaviour = queues.get(path)?.shift() ?? defaults.get(path) ?? 200
      if (behaviour === 'hang') {
        hanging.add(response)
        return
      }
      response.writeHead(behaviour, { 'content-type': 'text/plain' }).end(`answered ${behaviour}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    /** What `path` got, in order. */
    at: (path: string) => received.filter((r) => r.path === path),
    /** Behaviours for the next requests to `path`, in order. */
    answer: (path: string, ...behaviours: Behaviour[]) =>
      queues.set(path, [...(queues.get(path) ?? []), ...behaviours]),
    /** How `path` answers once its queue is empty. */
    answerAlways: (path: string, behaviour: Behaviour) => defaults.set(path, behaviour),
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>

/** What a receiver verified with the standardwebhooks package: the payload, or the verification's error. */
export function verified(secret: string, request: Received): { type: string; timestamp: string; data: any } {
  return new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as any
}

/** A signed-in account: its uid and the session cookie to send. */
export async function signedInAccount(db: Db, name = 'hooks') {
  const uid = `${name}-${randomUUID()}`
  await ensureUser(db, { uid, email: `${uid}@example.com` })
  const { token } = await openSession(db, bySystem, uid, 1)
  return { uid, headers: { cookie: `session=${token}` } }
}

export async function createEndpoint(
  headers: Record<string, string>,
  json: { url: string; events: string[]; description?: string },
) {
  return call('POST', '/api/v1/account/webhooks', { headers, json })
}

/** Deliveries still pending, of every endpoint. */
export async function pendingDeliveries(db: Db): Promise<number> {
  const result = await db.execute(sql`select count(*)::int as n from webhook_deliveries where status = 'pending'`)
  const rows = Array.isArray(result) ? result : (result as { rows: Array<{ n: number }> }).rows
  return Number((rows[0] as { n: number }).n)
}
