/** Cosine similarity of two vectors of equal length; 0 when either is all zeros. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`vectors differ in length: ${a.length} and ${b.length}`)
  let dot = 0
  let normA = 0
  let normB = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i]
    normA += a[i] * a[i]
    normB += b[i] * b[i]
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB)
}

/** Every pair's cosine similarity: row i, column j compares vector i with vector j. */
export function similarityMatrix(vectors: readonly (readonly number[])[]): number[][] {
  return vectors.map((a) => vectors.map((b) => cosine(a, b)))
}
