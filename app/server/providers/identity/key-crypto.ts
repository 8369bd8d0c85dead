import { base64url } from 'jose'
import type { ServerEnv } from '~/server/env'

/**
 * Seals an account's API keys (AES-256-GCM, Web Crypto) so the owner can take them to another device, while
 * a copy of the database alone reveals none. The key id is bound in as associated data, so a sealed value
 * moved onto another row does not open.
 */
const keys = new Map<string, Promise<CryptoKey>>()

export async function secretOf(env: ServerEnv): Promise<string> {
  if (env.KEY_ENCRYPTION_SECRET) return env.KEY_ENCRYPTION_SECRET
  // The embedded default: one random secret per data folder, made on first use (Node only; edge sets the variable).
  const [{ mkdir, readFile, writeFile }, { join }] = await Promise.all([
    import('node:fs/promises'),
    import('node:path'),
  ])
  const file = join(env.DATA_DIR, 'secrets', 'key-encryption')
  try {
    return (await readFile(file, 'utf8')).trim()
  } catch {
    await mkdir(join(env.DATA_DIR, 'secrets'), { recursive: true, mode: 0o700 })
    const fresh = base64url.encode(crypto.getRandomValues(new Uint8Array(32)))
    // `wx`: when two processes race, the second one's write fails and it reads the first one's secret.
    await writeFile(file, fresh, { flag: 'wx', mode: 0o600 }).catch(() => undefined)
    return (await readFile(file, 'utf8')).trim()
  }
}

function cryptoKey(env: ServerEnv): Promise<CryptoKey> {
  const id = env.KEY_ENCRYPTION_SECRET ? 'env' : `dir:${env.DATA_DIR}`
  let key = keys.get(id)
  if (!key) {
    key = secretOf(env).then(async (secret) => {
      const material = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret))
      return crypto.subtle.importKey('raw', material, 'AES-GCM', false, ['encrypt', 'decrypt'])
    })
    key.catch(() => keys.delete(id))
    keys.set(id, key)
  }
  return key
}

export async function sealKey(env: ServerEnv, keyId: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(keyId) },
    await cryptoKey(env),
    new TextEncoder().encode(plaintext),
  )
  return `v1.${base64url.encode(iv)}.${base64url.encode(new Uint8Array(sealed))}`
}

export async function openKey(env: ServerEnv, keyId: string, sealed: string): Promise<string> {
  const [version, iv, body] = sealed.split('.')
  if (version !== 'v1' || !iv || !body) throw new Error('not a sealed key')
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes(iv), additionalData: new TextEncoder().encode(keyId) },
    await cryptoKey(env),
    bytes(body),
  )
  return new TextDecoder().decode(plain)
}

/** Decoded into a fresh ArrayBuffer-backed view, the only kind Web Crypto's types accept. */
const bytes = (text: string) => new Uint8Array(base64url.decode(text))
