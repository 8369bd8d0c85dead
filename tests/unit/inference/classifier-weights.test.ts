import { describe, expect, it } from 'vitest'
import { type ClassifierWeights, decodeWeights, encodeWeights } from '~/server/providers/inference/classifier-model'

const model: ClassifierWeights = {
  labels: ['sports', 'cuisine française', '料理 🍳'],
  dimensions: 4,
  weights: Float32Array.from([0.5, -1.25, 3, 0, 1e-7, -0, 2.5, -3.75, 100, -100, 0.1, 0.2]),
  bias: Float32Array.from([0.25, -0.5, 1]),
}

const encoded = () => encodeWeights(model)
const withByte = (bytes: Uint8Array, index: number, value: number) => {
  const copy = Uint8Array.from(bytes)
  copy[index] = value
  return copy
}

describe('the classifier weights format', () => {
  it('decodes what it encodes, bit for bit', () => {
    const decoded = decodeWeights(encoded())
    expect(decoded.labels).toEqual(model.labels)
    expect(decoded.dimensions).toBe(4)
    expect(Buffer.from(decoded.weights.buffer).equals(Buffer.from(model.weights.buffer))).toBe(true)
    expect(Buffer.from(decoded.bias.buffer).equals(Buffer.from(model.bias.buffer))).toBe(true)
  })

  it('writes a versioned header and little-endian float32 numbers', () => {
    const bytes = encoded()
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('CLFW')
    expect(bytes[4]).toBe(1)
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    expect(view.getUint32(8, true)).toBe(3)
    expect(view.getUint32(12, true)).toBe(4)
    const labelBytes = model.labels.reduce((sum, label) => sum + 4 + new TextEncoder().encode(label).length, 0)
    expect(bytes.length).toBe(16 + labelBytes + 4 * (12 + 3))
    expect(view.getFloat32(16 + labelBytes, true)).toBe(0.5)
    expect(view.getFloat32(bytes.length - 4, true)).toBe(1)
  })

  it('decodes from a view into a larger buffer', () => {
    const bytes = encoded()
    const padded = new Uint8Array(bytes.length + 10)
    padded.set(bytes, 3)
    expect(decodeWeights(padded.subarray(3, 3 + bytes.length)).labels).toEqual(model.labels)
  })

  it('refuses malformed bytes with an error', () => {
    const bytes = encoded()
    const labelsEnd = 16 + model.labels.reduce((sum, label) => sum + 4 + new TextEncoder().encode(label).length, 0)
    const cases: [Uint8Array, RegExp][] = [
      [new Uint8Array(0), /shorter than the header/],
      [bytes.subarray(0, 10), /shorter than the header/],
      [withByte(bytes, 0, 0x58), /wrong magic/],
      [withByte(bytes, 4, 2), /unknown format version 2/],
      [withByte(bytes, 6, 1), /reserved/],
      [withByte(bytes, 8, 0), /0 labels/],
      [withByte(bytes, 12, 0), /0 dimensions/],
      [withByte(bytes, 12, 5), /bytes of numbers/],
      [bytes.subarray(0, bytes.length - 1), /bytes of numbers/],
      [Uint8Array.from([...bytes, 0]), /bytes of numbers/],
      [bytes.subarray(0, 22), /truncated inside label 0/],
      [withByte(bytes, 16, 200), /truncated|bytes of numbers/],
      // "sports" → "spor\xff\xfe": not UTF-8.
      [withByte(withByte(bytes, 24, 0xff), 25, 0xfe), /not valid UTF-8/],
      // Float32 NaN (0x7fc00000) in the first weight.
      [withByte(withByte(bytes, labelsEnd + 2, 0xc0), labelsEnd + 3, 0x7f), /not finite/],
    ]
    for (const [malformed, message] of cases) expect(() => decodeWeights(malformed)).toThrow(message)
  })

  it('refuses repeated labels on both sides', () => {
    const repeated = { ...model, labels: ['a', 'a', 'b'] }
    expect(() => encodeWeights(repeated)).toThrow(/repeated label/)
    // Two labels of the same length, the second then overwritten with the first's bytes.
    const twoLabels = encodeWeights({
      labels: ['ab', 'cd'],
      dimensions: 1,
      weights: new Float32Array(2),
      bias: new Float32Array(2),
    })
    twoLabels.set(new TextEncoder().encode('ab'), 16 + 4 + 2 + 4)
    expect(() => decodeWeights(twoLabels)).toThrow(/repeated label/)
  })

  it('refuses inconsistent weights when encoding', () => {
    expect(() => encodeWeights({ ...model, weights: new Float32Array(5) })).toThrow(/5 weights/)
    expect(() => encodeWeights({ ...model, bias: new Float32Array(2) })).toThrow(/2 biases/)
    expect(() => encodeWeights({ ...model, labels: [] })).toThrow(/0 labels/)
    expect(() => encodeWeights({ ...model, labels: ['a', '', 'b'] })).toThrow(/empty label/)
    expect(() => encodeWeights({ ...model, dimensions: 0 })).toThrow(/dimensions/)
    expect(() => encodeWeights({ ...model, bias: Float32Array.from([0, Infinity, 0]) })).toThrow(/not finite/)
  })
})
