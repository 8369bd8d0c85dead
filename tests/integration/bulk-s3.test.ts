import { rmSync } from 'node:fs'
import { afterAll, expect, it } from 'vitest'
import { drainQueue, jobOf, upload, uploadForm } from '../support/bulk'
import { startFakeS3 } from '../support/fake-s3'
import { call, keyWithBalance, apiDatabase } from '../support/api'

let s3: Awaited<ReturnType<typeof startFakeS3>>
const dataDir = `tests/.tmp/bulk-s3-${process.pid}`
const database = apiDatabase({
  env: async () => {
    s3 = await startFakeS3('jobs-bucket')
    return {
      DATA_DIR: dataDir,
      JOB_WORKER: 'off',
      S3_BUCKET: 'jobs-bucket',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'eu-central-1',
      S3_ACCESS_KEY_ID: 'test-access-key',
      S3_SECRET_ACCESS_KEY: 'test-secret-key',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: 'prod/',
    }
  },
})
afterAll(async () => {
  await s3?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

it("keeps a job's files in the S3 bucket and downloads the result by a presigned link to it", async () => {
  const key = await keyWithBalance(database.db, 1_000_000)
  const list = Array.from({ length: 300 }, (_, i) => `text number ${i} for the bucket`)
  const { body: job } = await upload(key.apiKey, uploadForm('s3.txt', list.join('\n'), { model: 'embeddings-v3' }))
  expect(s3.objects.has(`prod/bulk/${job.id}/input.jsonl`)).toBe(true)
  await drainQueue(database.db)
  expect((await jobOf(key.apiKey, job.id)).body.status).toBe('completed')
  // Once the result is whole its parts are removed; the input and the result stay.
  expect([...s3.objects.keys()].filter((k) => k.includes(job.id)).sort()).toEqual([
    `prod/bulk/${job.id}/input.jsonl`,
    `prod/bulk/${job.id}/result.jsonl`,
  ])

  const { body } = await call('POST', `/v1/bulk-embeddings/${job.id}/download-result`, {
    bearer: key.apiKey,
  })
  const link = new URL(body.download_url)
  expect(link.origin).toBe(s3.endpoint)
  expect(link.searchParams.get('X-Amz-Expires')).toBe('3600')
  expect(link.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/)
  const answer = await fetch(link)
  expect(answer.status).toBe(200)
  expect(answer.headers.get('content-disposition')).toBe('attachment; filename="s3.embeddings.jsonl"')
  const lines = (await answer.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
  expect(lines).toHaveLength(300)
  expect(lines[299]).toMatchObject({ index: 299 })
  expect(lines[299].embedding).toHaveLength(1024)
})
