/**
 * An embedding as the caller asked for it: a prefix of `dimensions` (Matryoshka-style truncation, the
 * first dimensions carry the most), re-normalised to unit length when `normalized`, then as plain floats,
 * base64 of its float32 little-endian bytes, or its sign bits packed 8 to a byte (most significant bit
 * first) as signed (`binary`) or unsigned (`ubinary`) byte values.
 */
import type { EmbeddingType } from '~/contracts/search'

export type { EmbeddingType }

export interface EmbeddingFormat {
  dimensions?: number
  normalized: boolean
  type: EmbeddingType
}

/** Unit vectors are unit length already: only a shortened one needs scaling back to it; raw ones stay raw. */
function prefix(vector: Float32Array, dimensions: number | undefined, normalized: boolean): Float32Array {
  const length = dimensions ?? vector.length
  if (!Number.isInteger(length) || length < 1 || length > vector.length)
    throw new Error(`dimensions must be a whole number from 1 to ${vector.length}, not ${dimensions}`)
  if (length === vector.length) return vector
  const values = vector.subarray(0, length)
  if (!normalized) return values
  let squares = 0
  for (const value of values) squares += value * value
  // An all-zero prefix has no direction to keep: it stays zero rather than becoming NaN.
  if (squares === 0) return values
  const scale = 1 / Math.sqrt(squares)
  return values.map((value) => value * scale)
}

/** A plain array of the values: a counted loop, several times faster than `Array.from` on a typed array. */
function toArray(values: ArrayLike<number>): number[] {
  const out = new Array<number>(values.length)
  for (let i = 0; i < values.length; i++) out[i] = values[i]
  return out
}

/** Sign bits of `values` (1 for > 0), 8 per byte, the first value in the most significant bit. */
export function packSignBits(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(Math.ceil(values.length / 8))
  for (let i = 0; i < values.length; i++) if (values[i] > 0) bytes[i >> 3] |= 0x80 >> (i & 7)
  return bytes
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

function float32Base64(values: Float32Array): string {
  // A typed array's bytes are already little-endian float32 on every platform we run on: encode them in place.
  if (littleEndian) return Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64')
  const bytes = new Uint8Array(values.length * 4)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i], true)
  return Buffer.from(bytes).toString('base64')
}

export function formatEmbedding(vector: Float32Array, format: EmbeddingFormat): number[] | string {
  const values = prefix(vector, format.dimensions, format.normalized)
  switch (format.type) {
    case 'float':
      return toArray(values)
    case 'base64':
      return float32Base64(values)
    case 'ubinary':
      return toArray(packSignBits(values))
    case 'binary':
      return toArray(new Int8Array(packSignBits(values).buffer))
    default:
      throw new Error(`unknown embedding type ${String(format.type satisfies never)}`)
  }
}

/**
 * An embedding in each encoding asked for: the encoding itself when one was named as a string, an object
 * with one entry per encoding when a list was (the original API's answer to a list of `embedding_type`s).
 */
export function encodeEmbedding(
  vector: Float32Array,
  format: { dimensions?: number; normalized: boolean; types: EmbeddingType[]; asList: boolean },
): number[] | string | Partial<Record<EmbeddingType, number[] | string>> {
  const one = (type: EmbeddingType) => formatEmbedding(vector, { ...format, type })
  if (!format.asList) return one(format.types[0])
  return Object.fromEntries(format.types.map((type) => [type, one(type)]))
}
