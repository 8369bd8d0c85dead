import { describe, expect, it } from 'vitest'
import { stringifyPaced } from '~/server/paced-json'

describe('stringifyPaced', { timeout: 30_000 }, () => {
  it('writes what JSON.stringify writes', async () => {
    const values: unknown[] = [
      null,
      7,
      'text "quoted" \u2028',
      [],
      {},
      [1, undefined, () => 1, null, 'x', [2, [3, {}]]],
      {
        a: 1,
        b: undefined,
        c: () => 1,
        d: [{ e: new Date(0) }, new Float32Array([1.5, 2])],
        'k"ey': { nested: [true] },
      },
      { big: Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? i : [String(i), [i]])) },
      Array.from({ length: 10_000 }, (_, i) => i / 7),
      Object.assign(Object.create(null), { bare: 1 }),
    ]
    for (const value of values) expect(await stringifyPaced(value)).toBe(JSON.stringify(value))
  })

  it('gives the event loop turns while it writes a large answer', async () => {
    const answer = { tokens: Array.from({ length: 600_000 }, (_, i) => [`t${i}`, [i]]) }
    let turns = 0
    const timer = setInterval(() => turns++, 1)
    try {
      expect((await stringifyPaced(answer)).length).toBeGreaterThan(6_000_000)
    } finally {
      clearInterval(timer)
    }
    expect(turns).toBeGreaterThan(3)
  })
})
