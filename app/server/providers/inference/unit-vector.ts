/**
 * `values` scaled to unit (L2) length, as every engine answers; undefined when that is impossible (all zeros,
 * or a NaN or infinity in it), so the caller refuses the vector instead of answering garbage.
 */
export function unitVector(values: ArrayLike<number>): Float32Array | undefined {
  let sumOfSquares = 0
  for (let i = 0; i < values.length; i++) sumOfSquares += values[i] * values[i]
  const norm = Math.sqrt(sumOfSquares)
  if (!(norm > 0) || !Number.isFinite(norm)) return undefined
  const unit = new Float32Array(values.length)
  for (let i = 0; i < values.length; i++) unit[i] = values[i] / norm
  return unit
}

/** Cosine similarity of two unit vectors (their dot product), for scoring with a bi-encoder. */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i]
  return sum
}
