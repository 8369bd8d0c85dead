import { serverEnv } from '~/server/env'
import { DownloadLinkRefused } from '../../domain/refusals'

let processSecret: string | undefined

/** BULK_DOWNLOAD_SECRET, or one random secret for this process (its links end with it). */
function secret(): string {
  return serverEnv().BULK_DOWNLOAD_SECRET ?? (processSecret ??= crypto.randomUUID() + crypto.randomUUID())
}

const encoder = new TextEncoder()

/** HMAC-SHA256 (Web Crypto, so edge runtimes can check links too) of the job and the expiry, base64url. */
function signature(jobId: string, expires: number): Promise<string> {
  return signText(`bulk-result\n${jobId}\n${expires}`)
}

/** HMAC-SHA256 of `text` under the download secret, base64url: what every signed download link carries. */
export async function signText(text: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret()), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text)))
  let binary = ''
  for (const byte of mac) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** A link to the app's own download route, good until `expiresAt`: the job id and expiry are signed, so neither can be changed. */
export async function signedResultLink(jobId: string, expiresAt: Date): Promise<string> {
  const expires = Math.floor(expiresAt.getTime() / 1000)
  const query = new URLSearchParams({ expires: String(expires), signature: await signature(jobId, expires) })
  return `${serverEnv().PUBLIC_API_BASE_URL}/v1/bulk-embeddings/${jobId}/result?${query}`
}

/** Refuses a link that was altered (any part of it) or has expired. */
export async function checkResultLink(jobId: string, expires: number, given: string, now = Date.now()): Promise<void> {
  const expected = await signature(jobId, expires)
  let difference = expected.length ^ given.length
  for (let at = 0; at < expected.length; at++) difference |= expected.charCodeAt(at) ^ given.charCodeAt(at)
  if (difference !== 0) throw new DownloadLinkRefused('invalid')
  if (expires * 1000 <= now) throw new DownloadLinkRefused('expired')
}
