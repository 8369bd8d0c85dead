import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { solveChallenge, type Challenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser } from './support/browser'

const baseUrl = inject('baseUrl')
const run = promisify(execFile)

async function trialKey(): Promise<string> {
  const challenge = (await (await fetch(`${baseUrl}/api/v1/captcha/challenge?action=new_key`)).json()) as Challenge
  const solution = await solveChallenge({ challenge, deriveKey })
  const body = new FormData()
  body.set('captcha', Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'))
  const response = await fetch(`${baseUrl}/api/v1/api_key/trial`, { method: 'POST', body })
  return ((await response.json()) as { api_key: string }).api_key
}

describe('a newcomer', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(() => browser?.close())

  it('copies the curl sample from /embeddings, runs it in a shell with their key, and gets vectors back', async () => {
    const page = await browser.newPage()
    await page.goto(`${baseUrl}/embeddings`)
    await page.waitForSelector('#app[data-mounted="true"]')
    const sample = await page.locator('#api pre').first().innerText()
    await page.close()
    expect(sample).toMatch(/^curl /)
    expect(sample).toContain(`${baseUrl}/v1/embeddings`)
    // The sample reads the key from $API_KEY, as a newcomer's shell would hold it.
    const { stdout } = await run('bash', ['-c', sample], { env: { ...process.env, API_KEY: await trialKey() } })
    const answer = JSON.parse(stdout) as { data: Array<{ embedding: number[] }>; usage: { total_tokens: number } }
    expect(answer.data.length).toBeGreaterThan(0)
    expect(answer.data[0].embedding.length).toBeGreaterThan(0)
    expect(answer.data[0].embedding.every(Number.isFinite)).toBe(true)
    expect(answer.usage.total_tokens).toBeGreaterThan(0)
  })
})
