import { describe, expect, it } from 'vitest'
import { cosine, similarityMatrix } from '~/features/demos/lib/cosine'
import { vectorOf } from '~/features/demos/lib/vectors'

describe('embedding vectors', () => {
  it('compares vectors by the angle between them', () => {
    expect(cosine([1, 0], [0, 1])).toBe(0)
    expect(cosine([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12)
    expect(cosine([1, 0], [-1, 0])).toBe(-1)
    expect(cosine([3, 4], [4, 3])).toBeCloseTo(24 / 25, 12)
    expect(cosine([0, 0], [1, 1])).toBe(0)
    expect(() => cosine([1], [1, 2])).toThrow(/differ in length/)
  })

  it('builds a symmetric matrix with ones on the diagonal', () => {
    const matrix = similarityMatrix([
      [1, 0, 0],
      [0.6, 0.8, 0],
      [0, 0, 1],
    ])
    expect(matrix.map((row) => row.map((x) => Math.round(x * 100) / 100))).toEqual([
      [1, 0.6, 0],
      [0.6, 1, 0],
      [0, 0, 1],
    ])
  })

  it('reads float lists as they are and base64 as little-endian float32', () => {
    expect(vectorOf([0.5, -0.25])).toEqual([0.5, -0.25])
    const floats = new Float32Array([0.5, -0.25, 3])
    const base64 = Buffer.from(floats.buffer).toString('base64')
    expect(vectorOf(base64)).toEqual([0.5, -0.25, 3])
    expect(() => vectorOf(Buffer.from([1, 2, 3]).toString('base64'))).toThrow(/not a list of float32/)
  })
})
