import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { appRunning, useServedBrowser } from './support/browser'
import { serveBuild } from './support/server'
import { keyFrom } from '../support/trial-key'

const run = promisify(execFile)

describe('a newcomer', () => {
  // As `npm start` serves: no PUBLIC_BASE_URL, so the samples name http://localhost and the port.
  const { browser, server } = useServedBrowser(() =>
    serveBuild({ PUBLIC_BASE_URL: undefined, PUBLIC_API_BASE_URL: undefined, DATABASE_URL: '' }),
  )
  let baseUrl: string
  beforeAll(() => {
    baseUrl = server.baseUrl.replace('127.0.0.1', 'localhost')
  })

  it('copies the curl sample from /embeddings, runs it in a shell with their key, and gets vectors back', async () => {
    const page = await browser.newPage()
    await page.goto(`${baseUrl}/embeddings`)
    await appRunning(page)
    const sample = await page.locator('#api pre').first().innerText()
    await page.close()
    expect(sample).toMatch(/^curl /)
    expect(sample).toContain(`${baseUrl}/v1/embeddings`)
    // The sample reads the key from $API_KEY, as a newcomer's shell would hold it.
    const { stdout } = await run('bash', ['-c', sample], { env: { ...process.env, API_KEY: await keyFrom(baseUrl) } })
    const answer = JSON.parse(stdout) as { data: Array<{ embedding: number[] }>; usage: { total_tokens: number } }
    expect(answer.data.length).toBeGreaterThan(0)
    expect(answer.data[0].embedding.length).toBeGreaterThan(0)
    expect(answer.data[0].embedding.every(Number.isFinite)).toBe(true)
    expect(answer.usage.total_tokens).toBeGreaterThan(0)
  })
})
