/**
 * The features of the hashed embedding and their vector. Features of a normalised text: its terms
 * (./terms.ts), pairs of consecutive terms, and the character 3-, 4- and 5-grams of each non-CJK term
 * wrapped in boundary markers (so "cat" gives "<ca", "cat", "at>", "<cat", "cat>", "<cat>"), which make
 * inflections and typos land near each other. Each feature is a 32-bit hash, counted exactly in a
 * FeatureTable; its value is `weight(kind) · (1 + ln tf)`.
 *
 * The vector is a fixed sparse random projection of those values, built so that every prefix a caller may
 * keep (`dimensions` ≥ 8) is a usable vector on its own: the dimensions are split into nested blocks
 * [0, 8), [8, 16), [16, 32), … doubling up to the full width, and every feature adds its value, times a
 * hash-chosen sign and magnitude, to one hash-chosen dimension of every block. A prefix therefore holds
 * each feature at least once (never all zeros for a text with features), and the dot product of two
 * prefixes sums one estimate of the features' dot product per block, weighted by the block's width (wider
 * blocks collide less), so truncating keeps distances (more noisily, the shorter the prefix). A seed (the served model's id) gives each model its
 * own projection.
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

/** The nested blocks of a `dimensions`-wide vector as [start, end) pairs: [0, 8), [8, 16), [16, 32), … */
export function projectionBlocks(dimensions: number): Array<[number, number]> {
  if (!Number.isInteger(dimensions) || dimensions < FIRST_BLOCK)
    throw new Error(`a projected vector needs at least ${FIRST_BLOCK} dimensions, not ${dimensions}`)
  const blocks: Array<[number, number]> = [[0, FIRST_BLOCK]]
  for (let start = FIRST_BLOCK; start < dimensions; start *= 2) blocks.push([start, Math.min(dimensions, start * 2)])
  return blocks
}

/** Seeds a model's projection from its id: the same id always projects the same way. */
export function projectionSeed(name: string): number {
  return fmix32(fnvSpan(name, 0, name.length))
}

/** A width's blocks as typed arrays (the nested blocks, then the whole width), built once per width. */
interface Layout {
  starts: Int32Array
  sizes: Int32Array
  /** size − 1 for a power-of-two block (a mask instead of a division), else −1. */
  masks: Int32Array
  /** A block's share of a dot product grows with its width: wider blocks collide less, so they dominate. */
  weights: Float64Array
}
const layouts = new Map<number, Layout>()

function layoutOf(dimensions: number): Layout {
  let layout = layouts.get(dimensions)
  if (!layout) {
    // The whole width as one more block: the full vector keeps the collision rate of one hash over every
    // dimension, and each prefix still holds every feature through the nested blocks.
    const blocks = [...projectionBlocks(dimensions), [0, dimensions] as [number, number]]
    layout = {
      starts: Int32Array.from(blocks, ([start]) => start),
      sizes: Int32Array.from(blocks, ([start, end]) => end - start),
      masks: Int32Array.from(blocks, ([start, end]) => ((end - start) & (end - start - 1) ? -1 : end - start - 1)),
      weights: Float64Array.from(blocks, ([start, end]) => end - start),
    }
    layouts.set(dimensions, layout)
  }
  return layout
}

/**
 * The raw (not normalised) projection of the features in `table`: each feature's value, times a magnitude in
 * [0.5, 1.5) drawn from its hash (so features never cancel exactly), added with a hash-chosen sign to one
 * hash-chosen dimension of every block. Three hashes per feature, each one multiply and shift away from the
 * last: the dimensions in the blocks come from rotations of the first, the signs and the magnitude from the
 * second, the whole width's dimension from the third.
 */
export function featureSums(table: FeatureTable, dimensions: number, seed = 0): Float64Array {
  const sums = new Float64Array(dimensions)
  const { starts, sizes, masks, weights } = layoutOf(dimensions)
  const nested = starts.length - 1
  table.forEach((key, kind, count) => {
    // The key is already a well-mixed hash: one multiply-xorshift per derived hash is enough. Kept as int32
    // (no `>>> 0`), so the engine works on small integers rather than boxed doubles.
    const first = Math.imul(key ^ seed, 0x9e3779b1)
    const second = Math.imul(first ^ (first >>> 15), 0x85ebca6b)
    const value = kindWeights[kind] * (1 + Math.log(count)) * (0.5 + (second & 0xffff) / 0x10000)
    let bits = first
    for (let b = 0; b < nested; b++) {
      const signed = (second >>> (16 + b)) & 1 ? -value : value
      const mask = masks[b]
      sums[starts[b] + (mask >= 0 ? bits & mask : (bits >>> 0) % sizes[b])] += signed * weights[b]
      // Each block reads other bits of the hash.
      bits = (bits >>> 7) | (bits << 25)
    }
    const whole = Math.imul(second ^ (second >>> 13), 0xc2b2ae35)
    sums[(whole >>> 0) % dimensions] += (second < 0 ? -value : value) * weights[nested]
  })
  return sums
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
