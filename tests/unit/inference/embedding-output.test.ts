import { describe, expect, it } from 'vitest'
import { formatEmbedding, packSignBits } from '~/server/providers/inference/embedding-output'
import { norm } from './support/vectors'

/** A unit vector with positive, negative and zero values, 20 long (not a multiple of 8). */
const vector = (() => {
  const values = Float32Array.from({ length: 20 }, (_, i) => (i % 5 === 0 ? 0 : Math.sin(i * 1.7)))
  const length = norm(values)
  return values.map((value) => value / length)
})()

const base64Floats = (text: string) => {
  const bytes = Buffer.from(text, 'base64')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true))
}

/** Unpacks `count` sign bits, most significant bit first, from byte values (signed or not). */
const unpackBits = (bytes: number[], count: number) =>
  Array.from({ length: count }, (_, i) => ((bytes[i >> 3] & 0xff) >> (7 - (i & 7))) & 1)

describe('formatting an embedding', () => {
  it('returns the floats as they are', () => {
    expect(formatEmbedding(vector, { normalized: true, type: 'float' })).toEqual(Array.from(vector))
  })

  it('truncates to a prefix, renormalised when asked and left as is when not', () => {
    const normalized = formatEmbedding(vector, { dimensions: 6, normalized: true, type: 'float' }) as number[]
    expect(normalized).toHaveLength(6)
    expect(Math.hypot(...normalized)).toBeCloseTo(1, 6)
    const prefixNorm = norm(vector.slice(0, 6))
    normalized.forEach((value, i) => expect(value).toBeCloseTo(vector[i] / prefixNorm, 6))
    expect(formatEmbedding(vector, { dimensions: 6, normalized: false, type: 'float' })).toEqual(
      Array.from(vector.slice(0, 6)),
    )
  })

  it('keeps an all-zero prefix at zero', () => {
    const zeros = Float32Array.from([0, 0, 1])
    expect(formatEmbedding(zeros, { dimensions: 2, normalized: true, type: 'float' })).toEqual([0, 0])
  })

  it('encodes base64 as the float32 little-endian bytes, which decode back to the same floats', () => {
    const text = formatEmbedding(vector, { normalized: true, type: 'base64' }) as string
    expect(typeof text).toBe('string')
    expect(base64Floats(text)).toEqual(Array.from(vector))
    const truncated = formatEmbedding(vector, { dimensions: 3, normalized: false, type: 'base64' }) as string
    expect(base64Floats(truncated)).toEqual(Array.from(vector.slice(0, 3)))
    expect(Buffer.from(truncated, 'base64')).toHaveLength(12)
  })

  it('packs sign bits 8 to a byte, most significant first, as uint8 (ubinary) and int8 (binary)', () => {
    const unsigned = formatEmbedding(vector, { normalized: true, type: 'ubinary' }) as number[]
    const signed = formatEmbedding(vector, { normalized: true, type: 'binary' }) as number[]
    expect(unsigned).toHaveLength(3)
    expect(signed).toHaveLength(3)
    for (const byte of unsigned) expect(byte >= 0 && byte <= 255 && Number.isInteger(byte)).toBe(true)
    for (const byte of signed) expect(byte >= -128 && byte <= 127 && Number.isInteger(byte)).toBe(true)
    const signs = Array.from(vector, (value) => (value > 0 ? 1 : 0))
    expect(unpackBits(unsigned, 20)).toEqual(signs)
    expect(unpackBits(signed, 20)).toEqual(signs)
    signed.forEach((byte, i) => expect(byte & 0xff).toBe(unsigned[i]))
    // Unused bits of the last byte are zero.
    expect(unsigned[2] & 0x0f).toBe(0)
  })

  it('packs the bits of known values exactly', () => {
    expect(Array.from(packSignBits(Float32Array.from([1, -1, 0, 2, 3, -4, 5, 6, 7])))).toEqual([0b10011011, 0b10000000])
    const allPositive = Float32Array.from({ length: 8 }, () => 1)
    expect(formatEmbedding(allPositive, { normalized: true, type: 'binary' })).toEqual([-1])
    expect(formatEmbedding(allPositive, { normalized: true, type: 'ubinary' })).toEqual([255])
    const firstOnly = Float32Array.from([1, 0, 0, 0, 0, 0, 0, 0])
    expect(formatEmbedding(firstOnly, { normalized: false, type: 'binary' })).toEqual([-128])
  })

  it('takes bits of the truncated prefix', () => {
    expect(formatEmbedding(vector, { dimensions: 9, normalized: true, type: 'ubinary' })).toHaveLength(2)
  })

  it('refuses dimensions the vector does not have', () => {
    for (const dimensions of [0, -1, 21, 2.5])
      expect(() => formatEmbedding(vector, { dimensions, normalized: true, type: 'float' })).toThrow(/dimensions/)
  })
})
