import { LEASE_SECONDS, workBulkQueue } from '~/server/api/bulk/worker'
import type { WorkerContext } from '~/server/api/bulk/run-job'
import type { Db } from '~/server/db/types'
import { engines } from '~/server/providers/inference/select'
import { objectStorage } from '~/server/providers/storage'
import { rmSync } from 'node:fs'
import { afterAll } from 'vitest'
import { apiDatabase, call } from './api'

/** A multipart upload of `text` as the file `name`, with the form fields given. */
export function uploadForm(
  name: string,
  text: string | Uint8Array<ArrayBuffer>,
  fields: Record<string, string> = {},
): FormData {
  const form = new FormData()
  for (const [field, value] of Object.entries(fields)) form.append(field, value)
  form.append('file', new Blob([text], { type: name.endsWith('.csv') ? 'text/csv' : 'text/plain' }), name)
  return form
}

/**
 * POST /v1/bulk-embeddings. The form is encoded first, as a browser sends it: a stream undici makes from
 * FormData errors when the server stops reading it part way, as it does on purpose for a refused file.
 */
export async function upload(bearer: string, form: FormData) {
  const encoded = new Response(form)
  const headers = { 'content-type': encoded.headers.get('content-type')! }
  return call('POST', '/v1/bulk-embeddings', { bearer, headers, body: await encoded.blob() })
}

export const jobOf = (bearer: string, id: string) => call('GET', `/v1/bulk-embeddings/${id}`, { bearer })

/** A worker as the server runs one, on the test's database and the configured storage. */
export async function testWorker(db: Db, overrides: Partial<WorkerContext> = {}): Promise<WorkerContext> {
  return {
    db,
    storage: objectStorage(),
    engine: (await engines()).embeddings,
    worker: `test-worker-${crypto.randomUUID().slice(0, 8)}`,
    leaseSeconds: LEASE_SECONDS,
    stopping: () => false,
    ...overrides,
  }
}

/** Works the queue to its end with one worker. */
export const drainQueue = async (db: Db, overrides: Partial<WorkerContext> = {}) =>
  workBulkQueue(await testWorker(db, overrides))

/** The result's lines, fetched the way a client would: download-result, then the link it gives. */
export async function downloadResult(
  bearer: string,
  id: string,
): Promise<Array<{ index: number; id?: string; embedding: number[] }>> {
  const { status, body } = await call('POST', `/v1/bulk-embeddings/${id}/download-result`, {
    bearer,
  })
  if (status !== 200) throw new Error(`download-result answered ${status}: ${JSON.stringify(body)}`)
  const url = new URL(body.download_url)
  const query = Object.fromEntries(url.searchParams)
  const result = await call('GET', url.pathname, { query })
  if (result.status !== 200)
    throw new Error(`the download link answered ${result.status}: ${JSON.stringify(result.body)}`)
  return String(result.body)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

/**
 * The database of a file of bulk-job tests, with a data folder of its own (`tests/.tmp/<name>-<pid>`, removed
 * after the file) and no job worker running: the tests work the queue themselves.
 */
export function bulkTestDatabase(name: string) {
  const dataDir = `tests/.tmp/${name}-${process.pid}`
  const database = apiDatabase({ env: { DATA_DIR: dataDir, JOB_WORKER: 'off' } })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
  return { database, dataDir }
}
