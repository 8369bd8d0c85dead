import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerMismatches, docSamples, runnableScript, type Origins } from '../support/doc-samples'
import { keyFrom } from '../support/trial-key'
import { useServer } from './support/server'

const run = promisify(execFile)

/**
 * Every sample the documentation marks runnable (```sh test) runs as a reader would run it, in bash with `curl`,
 * against the served build with a funded key in `API_KEY`: it must exit 0 and answer what the block after it
 * documents (```json answer or ```text answer). A sample that goes stale fails here, not in a reader's shell.
 * The server is its own public origin, as a deployment is, so the links it answers (a bulk job's download)
 * lead back to it.
 */
describe('the documentation samples', () => {
  const server = useServer({ CAPTCHA_DIFFICULTY: '1000' })
  let origins: Origins
  let apiKey: string
  let cwd: string
  beforeAll(async () => {
    // One origin for both hosts, as `npm start` serves them.
    origins = { api: server.baseUrl, site: server.baseUrl }
    apiKey = await keyFrom(server.baseUrl)
    cwd = mkdtempSync(join(tmpdir(), 'docs-samples-'))
  })
  afterAll(async () => {
    rmSync(cwd, { recursive: true, force: true })
  })

  const samples = docSamples()
  it('finds the samples of every page', () => {
    expect(samples.length).toBeGreaterThan(20)
  })

  // One after the other, in reading order: they share the key, as a reader working through the pages would.
  for (const sample of samples) {
    it(`${sample.name} runs and answers as documented`, async () => {
      const script = runnableScript(sample.code, origins)
      const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], {
        cwd,
        env: { PATH: process.env.PATH, HOME: cwd, API_KEY: apiKey },
        timeout: 90_000,
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
        throw new Error(
          `exited with ${error.code}:\n${error.stderr}\n${error.stdout?.slice(0, 2000)}\n--- script:\n${script}`,
        )
      })
      expect(stdout.trim(), 'an answer').not.toBe('')
      expect(sample.answer, 'an answer block after the sample').toBeDefined()
      expect(answerMismatches(sample.answer!, stdout, origins)).toEqual([])
    }, 120_000)
  }
})
