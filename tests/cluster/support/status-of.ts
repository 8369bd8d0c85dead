import { request, type Agent } from 'node:http'

/**
 * One request on a keep-alive agent (so a test sees what a connection to a draining or restarting instance
 * meets): its status, or 0 when the connection failed.
 */
export function statusOf(
  agent: Agent,
  url: string,
  { method = 'GET', bearer, body }: { method?: string; bearer: string; body?: object },
): Promise<number> {
  const payload = body ? JSON.stringify(body) : undefined
  return new Promise<number>((resolve) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${bearer}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', () => resolve(0))
      },
    )
    req.on('error', () => resolve(0))
    req.end(payload)
  })
}
