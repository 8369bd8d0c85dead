/**
 * The features of the hashed embedding and their vector. Features of a normalised text: its terms
 * (./terms.ts), pairs of consecutive terms, and the character 3-, 4- and 5-grams of each non-CJK term
 * wrapped in boundary markers (so "cat" gives "<ca", "cat", "at>", "<cat", "cat>", "<cat>"), which make
 * inflections and typos land near each other. Each feature is a 32-bit hash, counted exactly in a
 * FeatureTable; its value is `weight(kind) · (1 + ln tf)`.
 *
 * The vector is a fixed sparse random projection of those values (see `featureSums`): each feature lands
 * in one dimension of the whole width, and a text's few features of lowest rank land once more in the first
 * 8 dimensions, so every prefix a caller may keep (`dimensions` ≥ 8) is a usable vector (never all zeros for
 * a text with features) and truncating keeps distances (a prefix is a uniform sample of the features). A
 * seed (the served model's id) gives each model its own projection.
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
    const term = addTermFeatures(table, text, start, end, cjk)
    if (hasPrevious) table.add(fmix32(combineHashes(previousTerm, term) ^ PAIR_SEED), TERM_PAIR)
    previousTerm = term
    hasPrevious = true
  })
  if (terms > 0) return
  // No letters or digits (":-)", "🎉🎉", "---"): its non-space characters are all there is to tell it apart.
  let any = false
  for (const character of text) {
    if (/\s/.test(character)) continue
    table.add(fmix32(fnvSpan(character, 0, character.length, FALLBACK_SEED)), FALLBACK)
    any = true
  }
  // Only white space: one fixed feature, so the vector is still not all zeros.
  if (!any) table.add(EMPTY_KEY, FALLBACK)
}

/** Counts one term's own features (the term and its character n-grams); returns the term's unmixed hash. */
export function addTermFeatures(table: FeatureTable, text: string, start: number, end: number, cjk: boolean): number {
  const term = fnvSpan(text, start, end, TERM_SEED)
  table.add(fmix32(term), TERM)
  if (!cjk) addCharGrams(table, text, start, end)
  return term
}

/** The smallest `dimensions` a caller may keep: the first block's width. */
export const FIRST_BLOCK = 8

/**
 * Features a text also adds to the first block, the ones of lowest rank: enough that a prefix of 8 is a
 * sample of the text, few enough that the vector stays sparse (the JSON answer writes a zero in one byte).
 */
export const FIRST_BLOCK_FEATURES = 4
/** Their share there: enough to hold a short prefix, little enough that the full vector stays the features' own. */
const FIRST_BLOCK_WEIGHT = 0.5

/** Seeds a model's projection from its id: the same id always projects the same way. */
export function projectionSeed(name: string): number {
  return fmix32(fnvSpan(name, 0, name.length))
}

/** 1 + ln(tf) for the counts most features have, computed once. */
const termFrequency = Float64Array.from({ length: 64 }, (_, count) => (count === 0 ? 0 : 1 + Math.log(count)))

// The first block's features, reused by every call (the projection is synchronous).
const lowRanks = new Float64Array(FIRST_BLOCK_FEATURES)
const lowSlots = new Int32Array(FIRST_BLOCK_FEATURES)
const lowValues = new Float64Array(FIRST_BLOCK_FEATURES)

/**
 * The raw (not normalised) projection of the features in `table`, `dimensions` (≥ 8) wide. Each feature adds
 * its value with a hash-chosen sign to one hash-chosen dimension of the whole width (values repeat, which
 * also lets the JSON writer reuse their text): a sparse random projection, so a
 * prefix of `d` dimensions holds a uniform sample of about d/width of the features and its dot products
 * estimate the full ones (more noisily, the shorter the prefix). The text's FIRST_BLOCK_FEATURES features
 * of lowest rank (a hash of each: a consistent sample, the same features for texts that share them) are
 * added once more, at half their value, to the first block, [0, 8): every prefix a caller may keep holds at least one feature, so
 * no non-empty text gets an all-zero prefix. One write per feature and a few more per text keep the vector
 * as sparse as the features are few (a dense vector costs more to write as JSON than to compute).
 */
export function featureSums(table: FeatureTable, dimensions: number, seed = 0): Float64Array {
  if (!Number.isInteger(dimensions) || dimensions < FIRST_BLOCK)
    throw new Error(`a projected vector needs at least ${FIRST_BLOCK} dimensions, not ${dimensions}`)
  const sums = new Float64Array(dimensions)
  // A power-of-two width takes a mask instead of a division.
  const mask = dimensions & (dimensions - 1) ? -1 : dimensions - 1
  let kept = 0
  // The highest rank among those kept, once FIRST_BLOCK_FEATURES are.
  let worst = Infinity
  let worstAt = 0
  table.forEach((key, kind, count) => {
    // The key is already a well-mixed hash: one multiply-xorshift per derived hash is enough. Kept as int32
    // (no `>>> 0`), so the engine works on small integers rather than boxed doubles.
    const first = Math.imul(key ^ seed, 0x9e3779b1)
    const second = Math.imul(first ^ (first >>> 15), 0x85ebca6b)
    const tf = count < 64 ? termFrequency[count] : 1 + Math.log(count)
    const value = kindWeights[kind] * tf
    const signed = second < 0 ? -value : value
    sums[mask >= 0 ? first & mask : (first >>> 0) % dimensions] += signed
    const rank = Math.imul(second ^ (second >>> 13), 0xc2b2ae35) >>> 0
    if (kept < FIRST_BLOCK_FEATURES) {
      lowRanks[kept] = rank
      lowSlots[kept] = first >>> 29
      lowValues[kept] = signed
      kept++
      if (kept === FIRST_BLOCK_FEATURES) [worst, worstAt] = highest()
    } else if (rank < worst) {
      lowRanks[worstAt] = rank
      lowSlots[worstAt] = first >>> 29
      lowValues[worstAt] = signed
      ;[worst, worstAt] = highest()
    }
  })
  for (let i = 0; i < kept; i++) sums[lowSlots[i]] += FIRST_BLOCK_WEIGHT * lowValues[i]
  // Features of equal value and opposite signs may cancel out in a slot: should the whole first block be
  // zero, the first kept feature counts once more there, which no longer cancels.
  if (kept > 0 && firstBlockIsZero(sums)) sums[lowSlots[0]] += lowValues[0]
  return sums
}

function firstBlockIsZero(sums: Float64Array): boolean {
  for (let i = 0; i < FIRST_BLOCK; i++) if (sums[i] !== 0) return false
  return true
}

function highest(): [number, number] {
  let at = 0
  for (let i = 1; i < FIRST_BLOCK_FEATURES; i++) if (lowRanks[i] > lowRanks[at]) at = i
  return [lowRanks[at], at]
}

/** The unit vector of the features in `table`, `dimensions` (≥ 8) long. */
export function featureVector(table: FeatureTable, dimensions: number, seed = 0): Float32Array {
  return unitVector(featureSums(table, dimensions, seed))
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
