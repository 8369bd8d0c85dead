import { beforeAll, describe, expect, inject, it } from 'vitest'
import { hostileInputs, type HostileInput } from '../support/hostile-inputs'
import { watchLiveness } from '../support/liveness'
import { keyFrom } from '../support/trial-key'
import { recordResults, type BenchResult } from './support/results'

const baseUrl = inject('baseUrl')

let inputs: HostileInput[]
beforeAll(async () => {
  inputs = hostileInputs(baseUrl, await keyFrom(baseUrl))
})

describe('hostile input and the event loop', () => {
  it('records the worst /healthz/live stall under each hostile input of issue 26', async () => {
    const results: BenchResult[] = []
    for (const input of inputs) {
      const started = performance.now()
      const { result, worstMs, probes } = await watchLiveness(baseUrl, input.send)
      const seconds = (performance.now() - started) / 1000
      expect(input.expected).toContain(result.status)
      results.push({
        name: `worst /healthz/live stall: ${input.name}`,
        value: Math.round(worstMs),
        unit: 'ms',
        budget: { op: '<', value: 200 },
        note: `answered ${result.status} in ${seconds.toFixed(1)} s, ${probes} probes`,
      })
    }
    recordResults('hostile-inputs', results)
  })
})
