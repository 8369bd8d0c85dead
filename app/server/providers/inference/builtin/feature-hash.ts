/**
 * 32-bit hashing for the builtin engines: FNV-1a over UTF-16 code units (read in place, so no substring is
 * allocated per feature) with murmur3's finaliser on top, because FNV-1a alone leaves its low bits poorly
 * mixed and the embedding takes its bucket and sign from separate bits.
 */

export const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193

/** One FNV-1a step: folds a code unit into a running hash. */
export function fnvStep(hash: number, codeUnit: number): number {
  return Math.imul(hash ^ codeUnit, FNV_PRIME)
}

/** FNV-1a of `text[start, end)` as UTF-16 code units, starting from `seed`. */
export function fnvSpan(text: string, start: number, end: number, seed: number = FNV_OFFSET): number {
  let hash = seed
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME)
  return hash
}

/** murmur3's fmix32: every input bit flips about half the output bits. Returns a uint32. */
export function fmix32(hash: number): number {
  hash ^= hash >>> 16
  hash = Math.imul(hash, 0x85ebca6b)
  hash ^= hash >>> 13
  hash = Math.imul(hash, 0xc2b2ae35)
  hash ^= hash >>> 16
  return hash >>> 0
}

/** An order-dependent combination of two hashes (for word pairs): (a, b) and (b, a) differ. */
export function combineHashes(first: number, second: number): number {
  return Math.imul(first ^ 0x9e3779b9, 0x85ebca6b) ^ second
}
