import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as ort from 'onnxruntime-node'
import { describe, it } from 'vitest'
import { createOnnxEngines } from '~/server/providers/inference/onnx'
import { recordResults } from './support/results'

const RUNS = Number(process.env.BENCH_ONNX_RUNS ?? 3000)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** Microseconds per call, the median over RUNS calls after a warm-up. */
async function timeEach(call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 200; i++) await call()
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const started = process.hrtime.bigint()
    await call()
    times.push(Number(process.hrtime.bigint() - started) / 1000)
  }
  return median(times)
}

describe('onnx engine', () => {
  it('adds little to the raw session run of the tiny model', async () => {
    const modelsDir = mkdtempSync(join(tmpdir(), 'onnx-bench-'))
    try {
      execFileSync(process.execPath, ['scripts/make-tiny-model.mjs', join(modelsDir, 'tiny')])
      const vocab = JSON.parse(readFileSync(join(modelsDir, 'tiny', 'tokenizer.json'), 'utf8')).model.vocab
      const embeddings = createOnnxEngines({ modelsDir, embeddingModel: 'tiny' }).embeddings!
      const session = await ort.InferenceSession.create(join(modelsDir, 'tiny', 'onnx', 'model.onnx'))
      const results = []
      // Whole words of the generated vocabulary, so the raw run can be fed the ids the tokenizer would make.
      const known = Object.keys(vocab)
        .filter((word) => /^[a-z]{3,}$/.test(word))
        .slice(0, 20)
      for (const words of [8, 128]) {
        const text = Array.from({ length: words }, (_, i) => known[i % known.length]).join(' ')
        const ids = [vocab['[CLS]'], ...text.split(' ').map((w) => vocab[w]), vocab['[SEP]']]
        const tensor = (values: number[]) =>
          new ort.Tensor('int64', BigInt64Array.from(values, BigInt), [1, values.length])
        const raw = await timeEach(() =>
          session.run({
            input_ids: tensor(ids),
            attention_mask: tensor(ids.map(() => 1)),
            token_type_ids: tensor(ids.map(() => 0)),
          }),
        )
        const engine = await timeEach(() =>
          embeddings.embed([text], { requestedModel: 'tiny', task: undefined, lateChunking: false }),
        )
        results.push(
          { name: `onnx raw session run, ${words} words`, value: Math.round(raw), unit: 'µs' },
          {
            name: `onnx engine overhead, ${words} words`,
            value: Math.round(engine - raw),
            unit: 'µs',
            note: `embed([text]) ${Math.round(engine)} µs: tokenising, tensors, pooling, normalising; median of ${RUNS}`,
          },
        )
      }
      await session.release()
      recordResults('onnx', results)
    } finally {
      rmSync(modelsDir, { recursive: true, force: true })
    }
  }, 300_000)
})
