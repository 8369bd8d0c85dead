import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { send } from './api'

export interface AppOnLoopback {
  /** `http://127.0.0.1:<port>`: set it as PUBLIC_BASE_URL, so the reader reads the site's pages from it. */
  origin: string
  /** Paths of the requests it received, in order. */
  hits: string[]
  close(): Promise<void>
}

/** The request as the app's handler takes it: the same method, headers and body, at `origin`. */
function requestOf(incoming: IncomingMessage, origin: string): Request {
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers))
    for (const one of [value ?? []].flat()) headers.append(name, one)
  const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD'
  return new Request(new URL(incoming.url ?? '/', origin), {
    method: incoming.method,
    headers,
    ...(hasBody && { body: Readable.toWeb(incoming) as ReadableStream, duplex: 'half' }),
  } as RequestInit)
}

/**
 * The in-process app served on a loopback port, as `npm start` serves it: for tests whose server reads its
 * own pages over HTTP (search's built-in engine answers this site's pages, and reads each through the reader).
 * Every request goes through the same handler `send` uses.
 */
export async function serveAppOnLoopback(): Promise<AppOnLoopback> {
  const hits: string[] = []
  let origin = ''
  const server: Server = createServer((incoming, outgoing) => {
    hits.push(incoming.url ?? '/')
    void send(requestOf(incoming, origin))
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers))
        const reader = response.body?.getReader()
        for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read())
          outgoing.write(chunk.value)
        outgoing.end()
      })
      .catch((error: unknown) => {
        outgoing.destroy(error instanceof Error ? error : new Error(String(error)))
      })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    hits,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
