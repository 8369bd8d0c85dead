import { solveChallenge, type Challenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'

/** A trial key from the served build, taken as the dashboard takes one: a solved captcha, then the trial call. */
export async function trialKey(baseUrl: string): Promise<string> {
  const challenge = (await (await fetch(`${baseUrl}/api/v1/captcha/challenge?action=new_key`)).json()) as Challenge
  const solution = await solveChallenge({ challenge, deriveKey })
  const body = new FormData()
  body.set('captcha', Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'))
  const response = await fetch(`${baseUrl}/api/v1/api_key/trial`, { method: 'POST', body })
  if (!response.ok) throw new Error(`no trial key: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { api_key: string }).api_key
}
