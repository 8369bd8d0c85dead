import { solveChallenge, type Challenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'

/** A served build's captcha for `action`, solved here as the browser widget would: the form field's value. */
export async function solvedCaptchaAt(baseUrl: string, action: string): Promise<string> {
  const challenge = (await (await fetch(`${baseUrl}/api/v1/captcha/challenge?action=${action}`)).json()) as Challenge
  const solution = await solveChallenge({ challenge, deriveKey })
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64')
}

/** A key from a served build as a REST client gets one, the captcha solved here: `trial` (10M tokens) or `empty`. */
export async function keyFrom(baseUrl: string, kind: 'trial' | 'empty' = 'trial'): Promise<string> {
  const captcha = await solvedCaptchaAt(baseUrl, 'new_key')
  const issued = await fetch(`${baseUrl}/api/v1/api_key/${kind}`, {
    method: 'POST',
    body: new URLSearchParams({ captcha }),
  })
  if (!issued.ok) throw new Error(`${kind} key: ${issued.status} ${await issued.text()}`)
  return ((await issued.json()) as { api_key: string }).api_key
}
