/** Vector helpers for the inference tests. */

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i]
  return dot
}

export function norm(vector: Float32Array): number {
  return Math.sqrt(cosine(vector, vector))
}
