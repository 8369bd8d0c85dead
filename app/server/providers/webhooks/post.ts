import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import { brand } from '#config'
import { hostOf } from '../reader/address-policy'
import type { ResolvedAddress } from './address'

/** What one attempt came to: the receiver's status and the start of its answer, or why there was none. */
export type PostOutcome =
  { status: number; body: string; durationMs: number } | { error: string; durationMs: number; status?: undefined }

/** How much of a receiver's answer is kept for the delivery log. */
const KEPT_BODY_CHARACTERS = 1000
const READ_BODY_BYTES = 16 * 1024

/** Every lookup answered with the address already checked, so the connection cannot go anywhere else. */
function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [{ address, family }])
    else callback(null, address, family)
  }
}

async function startOf(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk)
    size += chunk.byteLength
    if (size >= READ_BODY_BYTES) break
  }
  response.destroy()
  const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, READ_BODY_BYTES)).replaceAll('\0', '')
  return Array.from(text).slice(0, KEPT_BODY_CHARACTERS).join('')
}

/**
 * POSTs one signed event to the address checked for it, on a fresh connection (no pooled socket opened for
 * another name), within `timeoutMs` for the whole exchange. Redirects are not followed: a 3xx is a failure,
 * as is anything but 2xx. Never throws: every failure is an outcome the log shows.
 */
export async function postWebhook(
  url: URL,
  address: ResolvedAddress,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostOutcome> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const signal = AbortSignal.timeout(timeoutMs)
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  try {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = send(
        {
          host: hostOf(url).host,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          agent: false,
          lookup: pinnedLookup(address),
          signal,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': `${brand.shortName}-Webhooks/1.0 (+https://${brand.domain})`,
          },
        },
        resolve,
      )
      request.once('error', reject)
      request.end(body)
    })
    const text = await startOf(response)
    return { status: response.statusCode ?? 0, body: text, durationMs: elapsed() }
  } catch (error) {
    if (signal.aborted) return { error: `No answer within ${timeoutMs / 1000} s`, durationMs: elapsed() }
    const code = (error as { code?: unknown })?.code
    const why = typeof code === 'string' ? code : String((error as Error)?.message ?? error)
    return { error: `Could not connect to ${url.host} (${why})`.slice(0, 500), durationMs: elapsed() }
  }
}
