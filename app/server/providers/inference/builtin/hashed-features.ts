/**
 * The features of the hashed embedding and their vector. Features of a normalised text: its terms
 * (./terms.ts), pairs of consecutive terms, and the character 3-, 4- and 5-grams of each non-CJK term
 * wrapped in boundary markers (so "cat" gives "<ca", "cat", "at>", "<cat", "cat>", "<cat>"), which make
 * inflections and typos land near each other. Each feature is a 32-bit hash, counted exactly in a
 * FeatureTable; the vector adds `weight(kind) · (1 + ln tf)` with a hash-chosen sign to a hash-chosen
 * bucket (signed feature hashing, so collisions cancel out on average instead of piling up), then is
 * scaled to unit length.
 */
import { combineHashes, fmix32, fnvSpan, fnvStep, FNV_OFFSET } from './feature-hash'
import type { FeatureTable } from './feature-table'
import { forEachTerm } from './terms'

const TERM = 0
const TERM_PAIR = 1
const CHAR_GRAM = 2
const FALLBACK = 3

/**
 * Whole terms say more than their fragments: a shared word is strong evidence of a shared topic, a shared
 * trigram ("ing") much weaker. A term also yields about a dozen character n-grams, so their weight per
 * feature is lower still to keep the words audible.
 */
const kindWeights = [1, 0.8, 0.3, 1]

// Distinct seeds keep the kinds apart: the term "cat" and the 3-gram "cat" are different features.
const TERM_SEED = FNV_OFFSET
const PAIR_SEED = 0x5bd1e995
const GRAM_SEED = 0x27d4eb2f
const FALLBACK_SEED = 0x165667b1
const EMPTY_KEY = 0x9e3779b9

const MIN_GRAM = 3
const MAX_GRAM = 5
// Markers outside every term's alphabet (control characters never occur in a term).
const WORD_START = 0x02
const WORD_END = 0x03

let gramBuffer = new Uint16Array(256)

function addCharGrams(table: FeatureTable, text: string, start: number, end: number): void {
  const length = end - start + 2
  if (gramBuffer.length < length) gramBuffer = new Uint16Array(2 * length)
  const buffer = gramBuffer
  buffer[0] = WORD_START
  for (let i = start; i < end; i++) buffer[i - start + 1] = text.charCodeAt(i)
  buffer[length - 1] = WORD_END
  for (let i = 0; i + MIN_GRAM <= length; i++) {
    let hash = GRAM_SEED
    const last = Math.min(length, i + MAX_GRAM)
    for (let j = i; j < last; j++) {
      hash = fnvStep(hash, buffer[j])
      if (j - i + 1 >= MIN_GRAM) table.add(fmix32(hash), CHAR_GRAM)
    }
  }
}

/** Counts the features of a normalised text into `table` (which may already hold other texts' features). */
export function addFeatures(table: FeatureTable, text: string): void {
  let previousTerm = 0
  let hasPrevious = false
  const terms = forEachTerm(text, (start, end, cjk) => {
    const term = fnvSpan(text, start, end, TERM_SEED)
    table.add(fmix32(term), TERM)
    if (hasPrevious) table.add(fmix32(combineHashes(previousTerm, term) ^ PAIR_SEED), TERM_PAIR)
    previousTerm = term
    hasPrevious = true
    if (!cjk) addCharGrams(table, text, start, end)
  })
  if (terms > 0) return
  // No letters or digits (":-)", "🎉🎉", "---"): its non-space characters are all there is to tell it apart.
  let any = false
  for (const character of text) {
    if (/\s/.test(character)) continue
    table.add(fmix32(fnvSpan(character, 0, character.length, FALLBACK_SEED)), FALLBACK)
    any = true
  }
  // Only white space: one fixed feature, so the vector still has unit length.
  if (!any) table.add(EMPTY_KEY, FALLBACK)
}

/** The unit vector of the features in `table`, `dimensions` (a power of two) long. */
export function featureVector(table: FeatureTable, dimensions: number): Float32Array {
  const sums = new Float64Array(dimensions)
  const mask = dimensions - 1
  table.forEach((key, kind, count) => {
    const value = kindWeights[kind] * (1 + Math.log(count))
    // The bucket from the low bits, the sign from the top bit: independent bits of one well-mixed hash.
    sums[key & mask] += key & 0x80000000 ? -value : value
  })
  return unitVector(sums)
}

/** `values` scaled to unit length as float32; an all-zero input (features that cancelled out) gives e₀. */
export function unitVector(values: ArrayLike<number>): Float32Array {
  let squares = 0
  for (let i = 0; i < values.length; i++) squares += values[i] * values[i]
  const vector = new Float32Array(values.length)
  if (squares === 0) {
    vector[0] = 1
    return vector
  }
  const scale = 1 / Math.sqrt(squares)
  for (let i = 0; i < values.length; i++) vector[i] = values[i] * scale
  return vector
}
