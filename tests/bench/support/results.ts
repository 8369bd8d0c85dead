import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface BenchResult {
  name: string
  value: number
  unit: string
  /** The budget the issue sets; BENCHMARKS.md says whether the result keeps it. */
  budget?: { op: '<' | '>='; value: number }
  note?: string
}

const dir = join(process.cwd(), 'tests/bench/.results')

/** Each bench file writes its numbers here; scripts/bench.mjs turns them into BENCHMARKS.md. */
export function recordResults(file: string, results: BenchResult[]) {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${file}.json`), JSON.stringify({ at: new Date().toISOString(), results }, null, 2))
}
