/**
 * Byte-pair encoding in O(n log n) of the piece's length, with the same tokens as `gpt-tokenizer`.
 *
 * The package merges a piece by scanning every adjacent pair for the lowest rank once per merge: quadratic
 * in the piece's length, and a piece is a whole run of characters without spaces, so one 200,000-character
 * run held the event loop for 22 s. Here the pairs wait in a binary heap ordered by (rank, position) and the
 * parts form a linked list, so each merge costs a logarithm. Popping the lowest rank, leftmost first, is the
 * package's (and tiktoken's) own order, so the tokens are identical; a unit test compares them.
 *
 * The work is a generator that yields every few thousand steps, so a caller can pause between slices
 * (`runPaced`) and no single slice holds the thread, whatever the length of the text.
 */

import { runPaced } from '../../paced'

export type RankTable = readonly (string | number[])[]

/** Steps (pieces split or pairs merged) between two yields of `encodeSteps`. */
const STEPS_PER_SLICE = 4096

const textEncoder = new TextEncoder()
const strictDecoder = new TextDecoder('utf-8', { fatal: true })

/** One character per byte: a Map key for a byte sequence that costs no decoding. */
function binaryString(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = ''
  for (let at = start; at < end; at += 8192)
    out += String.fromCharCode.apply(null, bytes.subarray(at, Math.min(end, at + 8192)) as unknown as number[])
  return out
}

/** Whether bytes are UTF-8 the package would decode to a string (its `isValidUTF8`, strict). */
function decodesAsText(bytes: readonly number[]): boolean {
  try {
    strictDecoder.decode(new Uint8Array(bytes))
    return true
  } catch {
    return false
  }
}

/** A min-heap of (rank, position) pairs packed in one double: rank · 2³² + position. */
class PairHeap {
  private items = new Float64Array(64)
  size = 0

  push(rank: number, position: number) {
    if (this.size === this.items.length) {
      const grown = new Float64Array(this.items.length * 2)
      grown.set(this.items)
      this.items = grown
    }
    const items = this.items
    const value = rank * 4294967296 + position
    let at = this.size++
    while (at > 0) {
      const parent = (at - 1) >> 1
      if (items[parent] <= value) break
      items[at] = items[parent]
      at = parent
    }
    items[at] = value
  }

  pop(): number {
    const items = this.items
    const top = items[0]
    const last = items[--this.size]
    let at = 0
    for (;;) {
      let child = 2 * at + 1
      if (child >= this.size) break
      if (child + 1 < this.size && items[child + 1] < items[child]) child++
      if (items[child] >= last) break
      items[at] = items[child]
      at = child
    }
    items[at] = last
    return top
  }
}

export class BytePairEncoder {
  /** Token text → id, for a piece that is one token as a whole (the package's first lookup). */
  private readonly textRanks = new Map<string, number>()
  /** Token bytes (one character per byte) → id, for the merges. */
  private readonly byteRanks = new Map<string, number>()
  /** The id of each two-byte token by its bytes (b0 · 256 + b1), -1 for none: most lookups, no hashing. */
  private readonly twoByteRanks = new Int32Array(65536).fill(-1)
  private maxTokenBytes = 1
  /** UTF-8 length of each token id's bytes. */
  readonly tokenBytes: Uint16Array

  private constructor(
    ranks: RankTable,
    private readonly splitPattern: RegExp,
  ) {
    this.tokenBytes = new Uint16Array(ranks.length)
  }

  /** The encoder of a rank table; its tables (a few hundred ms of work) are built in paced slices. */
  static create(ranks: RankTable, splitPattern: RegExp): Promise<BytePairEncoder> {
    const encoder = new BytePairEncoder(ranks, splitPattern)
    return runPaced(encoder.build(ranks)).then(() => encoder)
  }

  private *build(ranks: RankTable): Generator<void, void, void> {
    for (let rank = 0; rank < ranks.length; rank++) {
      if (rank % STEPS_PER_SLICE === 0) yield
      const token = ranks[rank]
      // Some rank tables have holes: those ids are never produced.
      if (token === undefined) continue
      let key: string
      if (typeof token === 'string') {
        this.textRanks.set(token, rank)
        const bytes = textEncoder.encode(token)
        key = binaryString(bytes)
      } else {
        this.tokenBytes[rank] = token.length
        // The package looks bytes that decode as text up among the text tokens only, so a byte token that
        // would decode can never be produced: left out here too.
        if (decodesAsText(token)) continue
        key = String.fromCharCode(...token)
      }
      this.tokenBytes[rank] = key.length
      this.byteRanks.set(key, rank)
      this.maxTokenBytes = Math.max(this.maxTokenBytes, key.length)
      if (key.length === 2) this.twoByteRanks[key.charCodeAt(0) * 256 + key.charCodeAt(1)] = rank
    }
  }

  encode(text: string): number[] {
    const ids: number[] = []
    const steps = this.encodeSteps(text, ids)
    while (!steps.next().done);
    return ids
  }

  /** Appends the ids of `text` to `ids`, yielding every few thousand steps. */
  *encodeSteps(text: string, ids: number[]): Generator<void, void, void> {
    const pattern = new RegExp(this.splitPattern.source, this.splitPattern.flags)
    let steps = 0
    for (const [piece] of text.matchAll(pattern)) {
      const whole = this.textRanks.get(piece)
      if (whole !== undefined) ids.push(whole)
      else yield* this.mergeSteps(textEncoder.encode(piece), ids)
      if (++steps >= STEPS_PER_SLICE) {
        steps = 0
        yield
      }
    }
  }

  /** The rank of bytes [start, end) of the piece, or -1 when they are no token. */
  private rankOf(piece: string, start: number, end: number): number {
    const width = end - start
    if (width === 2) return this.twoByteRanks[piece.charCodeAt(start) * 256 + piece.charCodeAt(start + 1)]
    if (width > this.maxTokenBytes) return -1
    return this.byteRanks.get(piece.slice(start, end)) ?? -1
  }

  private *mergeSteps(bytes: Uint8Array, ids: number[]): Generator<void, void, void> {
    const length = bytes.length
    const piece = binaryString(bytes)
    // Parts are runs of bytes [start, next[start]); a merged-away start is marked by next = -1.
    const next = new Int32Array(length + 1)
    const previous = new Int32Array(length + 1)
    // The rank of the pair that starts at each part, -1 for none: a heap entry that disagrees is stale.
    const pairRank = new Int32Array(length + 1).fill(-1)
    const heap = new PairHeap()
    for (let at = 0; at < length; at++) {
      next[at] = at + 1
      previous[at] = at - 1
    }
    next[length] = length
    const rankPair = (start: number) => {
      const middle = next[start]
      const end = middle < length ? next[middle] : -1
      const rank = end < 0 ? -1 : this.rankOf(piece, start, end)
      pairRank[start] = rank
      if (rank >= 0) heap.push(rank, start)
    }
    for (let at = 0; at < length - 1; at++) {
      rankPair(at)
      if (at % STEPS_PER_SLICE === STEPS_PER_SLICE - 1) yield
    }

    let steps = 0
    while (heap.size > 0) {
      const top = heap.pop()
      const rank = Math.floor(top / 4294967296)
      const start = top - rank * 4294967296
      if (next[start] < 0 || pairRank[start] !== rank) continue
      // Merge the part at `start` with the one after it.
      const removed = next[start]
      next[start] = next[removed]
      next[removed] = -1
      if (next[start] < length) previous[next[start]] = start
      rankPair(start)
      if (start > 0) rankPair(previous[start])
      if (++steps >= STEPS_PER_SLICE) {
        steps = 0
        yield
      }
    }

    for (let at = 0; at < length; at = next[at]) {
      const id = this.rankOf(piece, at, next[at])
      if (id < 0) throw new Error('a byte-pair part is not in the vocabulary')
      ids.push(id)
      if (ids.length % STEPS_PER_SLICE === 0) yield
    }
  }
}
