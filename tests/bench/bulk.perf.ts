import { describe, expect, inject, it } from 'vitest'
import { bulkLimits } from '~/contracts/bulk'
import { createHashedEmbeddings } from '~/server/providers/inference/builtin/hashed-embeddings'
import { recordResults } from './support/results'
import { keyFrom } from '../support/trial-key'

const baseUrl = inject('baseUrl')
const ROWS = Number(process.env.BENCH_BULK_ROWS ?? 10_000)
/** The machine is shared (see BENCHMARKS.md): the median of several runs is what is recorded. */
const RUNS = Number(process.env.BENCH_BULK_RUNS ?? 3)
const database = process.env.BENCH_DATABASE_URL ? 'Postgres' : 'PGlite'

/** About 1 KB of prose, varied per row (the texts of the search benchmark). */
const kilobyte = (i: number) =>
  `Document ${i}. Search systems retrieve candidate passages with a fast first stage, then rerank them with a slower, more precise model. `
    .repeat(8)
    .slice(0, 1000)

/** Texts per second of the engine alone on the same texts, in the job's batches, in this process. */
async function engineTextsPerSecond(texts: string[]): Promise<number> {
  const engine = createHashedEmbeddings()
  const options = { requestedModel: 'embeddings-v3', task: undefined, lateChunking: false }
  await engine.embed(texts.slice(0, bulkLimits.batchSize), options)
  const started = performance.now()
  for (let at = 0; at < texts.length; at += bulkLimits.batchSize)
    await engine.embed(texts.slice(at, at + bulkLimits.batchSize), options)
  return texts.length / ((performance.now() - started) / 1000)
}

interface Run {
  upload: number
  job: number
  download: number
  /** The job's own time, as the server recorded it: from the upload's end to its last commit. */
  processing: number
  bytes: number
  csvBytes: number
}

/** One file through the whole path: upload, wait for the job, download and count its lines. */
async function bulkRun(apiKey: string, texts: string[]): Promise<Run> {
  const auth = { authorization: `Bearer ${apiKey}` }
  const csv = ['id,text', ...texts.map((text, i) => `${i},"${text}"`)].join('\n')
  const started = performance.now()
  const form = new FormData()
  form.append('model', 'embeddings-v3')
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'bench.csv')
  const uploaded = await fetch(`${baseUrl}/v1/bulk-embeddings`, { method: 'POST', headers: auth, body: form })
  expect(uploaded.status).toBe(200)
  const { id } = (await uploaded.json()) as { id: string }
  const afterUpload = performance.now()
  let job: { status: string; created_at: string; completed_at: string | null }
  for (;;) {
    job = await (await fetch(`${baseUrl}/v1/bulk-embeddings/${id}`, { headers: auth })).json()
    if (job.status !== 'waiting' && job.status !== 'in-progress') break
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  expect(job.status).toBe('completed')
  const afterJob = performance.now()
  const link = await fetch(`${baseUrl}/v1/bulk-embeddings/${id}/download-result`, { method: 'POST', headers: auth })
  const { download_url } = (await link.json()) as { download_url: string }
  // The link names the public origin the build was made for; the served build answers on another port.
  const result = await fetch(download_url.replace(/^https?:\/\/[^/]+/, baseUrl))
  let bytes = 0
  let lines = 0
  for await (const chunk of result.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength
    for (const byte of chunk) if (byte === 10) lines++
  }
  expect(lines).toBe(texts.length)
  return {
    upload: afterUpload - started,
    job: afterJob - afterUpload,
    download: performance.now() - afterJob,
    processing: (Date.parse(job.completed_at!) - Date.parse(job.created_at)) / 1000,
    bytes,
    csvBytes: csv.length,
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

describe('bulk embeddings', () => {
  it(`embeds a ${ROWS.toLocaleString('en-US')}-row file end to end`, async () => {
    const texts = Array.from({ length: ROWS }, (_, i) => kilobyte(i))
    // A warm server, as one that has worked jobs before: the first job also compiles the engine's code.
    await bulkRun(await keyFrom(baseUrl), texts.slice(0, 2048))
    const runs: Array<Run & { ratio: number }> = []
    for (let i = 0; i < RUNS; i++) {
      // The engine alone is measured next to each run (before and after), so both see the same machine.
      const before = await engineTextsPerSecond(texts)
      const run = await bulkRun(await keyFrom(baseUrl), texts)
      const engine = (before + (await engineTextsPerSecond(texts))) / 2
      runs.push({ ...run, ratio: texts.length / run.processing / engine })
    }
    const typical = runs.find((run) => run.ratio === median(runs.map((r) => r.ratio)))!
    const seconds = (ms: number) => Math.round(ms) / 1000
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
    recordResults('bulk', [
      {
        name: `bulk ${ROWS} × 1 KB rows end to end`,
        value: seconds(typical.upload + typical.job + typical.download),
        unit: 's',
        note: `upload ${seconds(typical.upload)} s (${mb(typical.csvBytes)} MB), job ${seconds(typical.job)} s, download ${seconds(typical.download)} s (${mb(typical.bytes)} MB of JSON lines); built-in engine, ${database}`,
      },
      { name: 'bulk job throughput', value: Math.round(ROWS / typical.processing), unit: 'texts/s' },
      {
        name: 'bulk engine alone, same texts',
        value: Math.round(ROWS / typical.processing / typical.ratio),
        unit: 'texts/s',
      },
      {
        name: 'bulk job ÷ engine',
        value: Math.round(typical.ratio * 100) / 100,
        unit: '×',
        budget: { op: '>=', value: 0.9 },
        note: `median of ${RUNS} runs: ${runs.map((r) => r.ratio.toFixed(2)).join(', ')}`,
      },
    ])
  }, 900_000)
})
