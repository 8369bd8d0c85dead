/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com/): `v1,<base64 HMAC-SHA256>` of
 * `<webhook-id>.<webhook-timestamp>.<body>` under the secret's bytes, the secret given to its owner as
 * `whsec_<base64>`. Web Crypto only, so the same code signs on Node and in a Worker.
 */
const PREFIX = 'whsec_'
const SECRET_BYTES = 32

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

/** A new signing secret: 32 random bytes. */
export function newWebhookSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))
}

export async function signWebhook(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  if (!secret.startsWith(PREFIX)) throw new Error('not a whsec_ secret')
  const key = await crypto.subtle.importKey(
    'raw',
    fromBase64(secret.slice(PREFIX.length)),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`))
  return `v1,${toBase64(new Uint8Array(mac))}`
}

/**
 * The three headers of one attempt. Every secret in `secrets` signs (the current one first, then a rotated-out
 * one still within its 24 hours), space-separated, so a receiver holding either verifies.
 */
export async function webhookHeaders(
  secrets: string[],
  id: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
): Promise<Record<string, string>> {
  const signatures = await Promise.all(secrets.map((secret) => signWebhook(secret, id, timestamp, body)))
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
  }
}
