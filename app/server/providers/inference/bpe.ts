/**
 * Byte-pair encoding in O(n log n) of the piece's length, with the same tokens as `gpt-tokenizer`.
 *
 * The package merges a piece by scanning every adjacent pair for the lowest rank once per merge: quadratic
 * in the piece's length, and a piece is a whole run of characters without spaces, so one 200,000-character
 * run held the event loop for 22 s. Here the pairs wait in a binary heap ordered by (rank, position) and the
 * parts form a linked list, so each merge costs a logarithm. Popping the lowest rank, leftmost first, is the
 * package's (and tiktoken's) own order, so the tokens are identical; a unit test compares them.
 *
 * The work is a generator that yields every thousand or so steps, so a caller can pause between slices
 * (`runPaced`) and no single slice holds the thread, whatever the length of the text. That includes the
 * passes over a whole piece before its merges (UTF-8 encoding, the byte string, the part lists): over a
 * run of 4,000,000 letters they were one slice of 150–250 ms, the stall left by bodies of megabytes.
 */

import { runPaced, runToEnd } from '../../paced'

export type RankTable = readonly (string | number[])[]

/** Steps (pieces split, pairs ranked or popped from the heap, parts emitted) between two yields. */
const STEPS_PER_SLICE = 1024
/** Characters (or bytes) a linear pass over a long piece handles between two yields: well under a ms. */
const CHARS_PER_SLICE = 65536

const textEncoder = new TextEncoder()
const strictDecoder = new TextDecoder('utf-8', { fatal: true })

/** One character per byte: a Map key for a byte sequence that costs no decoding. */
function binaryString(bytes: Uint8Array): string {
  return runToEnd(binaryStringSteps(bytes))
}

/** `binaryString` in slices of CHARS_PER_SLICE bytes. */
export function* binaryStringSteps(bytes: Uint8Array, slice = CHARS_PER_SLICE): Generator<void, string, void> {
  let out = ''
  for (let at = 0; at < bytes.length; at += 8192) {
    out += String.fromCharCode.apply(null, bytes.subarray(at, Math.min(bytes.length, at + 8192)) as unknown as number[])
    if ((at + 8192) % slice < 8192) yield
  }
  return out
}

/**
 * A text's UTF-8 bytes (TextEncoder's, lone surrogates as U+FFFD) encoded CHARS_PER_SLICE characters at a
 * time; a slice never ends between the two halves of a surrogate pair, so the bytes are the same as at once.
 */
export function* utf8Steps(text: string, slice = CHARS_PER_SLICE): Generator<void, Uint8Array, void> {
  if (text.length <= slice) return textEncoder.encode(text)
  // At most three bytes per UTF-16 unit (a pair is four bytes for two units).
  const out = new Uint8Array(text.length * 3)
  let written = 0
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + slice)
    const last = text.charCodeAt(end - 1)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--
    written += textEncoder.encodeInto(text.slice(at, end), out.subarray(written)).written
    at = end
    yield
  }
  return out.subarray(0, written)
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
  private items: Float64Array
  size = 0

  /** Room for `capacity` pairs up front: growing copies the whole heap in one step. */
  constructor(capacity: number) {
    this.items = new Float64Array(Math.max(64, capacity))
  }

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
      else yield* this.mergeSteps(yield* utf8Steps(piece), ids)
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
    const piece = yield* binaryStringSteps(bytes)
    // Parts are runs of bytes [start, next[start]); a merged-away start is marked by next = -1.
    const next = new Int32Array(length + 1)
    const previous = new Int32Array(length + 1)
    // The rank of the pair that starts at each part, -1 for none: a heap entry that disagrees is stale.
    // Every start is ranked (below) before the heap can name it, so the array needs no fill of its own.
    const pairRank = new Int32Array(length + 1)
    // At most one pair per byte at first, and each merge adds at most one entry net.
    const heap = new PairHeap(2 * length)
    for (let at = 0; at < length; at++) {
      next[at] = at + 1
      previous[at] = at - 1
      if (at % CHARS_PER_SLICE === CHARS_PER_SLICE - 1) yield
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
      // A stale entry costs a pop too, so it counts as a step.
      if (++steps >= STEPS_PER_SLICE) {
        steps = 0
        yield
      }
      if (next[start] < 0 || pairRank[start] !== rank) continue
      // Merge the part at `start` with the one after it.
      const removed = next[start]
      next[start] = next[removed]
      next[removed] = -1
      if (next[start] < length) previous[next[start]] = start
      rankPair(start)
      if (start > 0) rankPair(previous[start])
    }

    for (let at = 0; at < length; at = next[at]) {
      const id = this.rankOf(piece, at, next[at])
      if (id < 0) throw new Error('a byte-pair part is not in the vocabulary')
      ids.push(id)
      if (ids.length % STEPS_PER_SLICE === 0) yield
    }
  }
}
