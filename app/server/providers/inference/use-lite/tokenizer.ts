/**
 * The Universal Sentence Encoder Lite's tokenizer: SentencePiece's unigram model over the package's 8,000
 * pieces (`vocab.json`, each `[piece, log probability]`), the best segmentation found by Viterbi.
 *
 * It gives the same ids as the tokenizer `@energetic-ai/embeddings` ships (tests/unit/use-lite-tokenizer.test.ts
 * compares them), quirks included: a character no piece starts with becomes id 0 (runs of them one id 0), and
 * a position no piece ends at counts as reached with score 0, as there. That one slices the rest of the input
 * at every character, so its time grows with the square of a text's length (20 ms for 1 KB, seconds for
 * 100 KB); this one walks the trie from each character only as deep as the longest piece.
 */

/** Ids below this are control symbols (unknown, <s>, </s>, …) that no text is split into. */
const RESERVED_PIECES = 6
/** SentencePiece's word-boundary mark: the text starts with it and every space becomes one. */
const WORD_MARK = '\u2581'

interface TrieNode {
  children: Map<number, TrieNode>
  /** The piece ending here, if any: its id and score. */
  id: number
  score: number
}

const node = (): TrieNode => ({ children: new Map(), id: -1, score: 0 })

export type Vocabulary = ReadonlyArray<readonly [string, number]>

export interface PieceTokenizer {
  /** The piece ids of `text`, in order. */
  encode(text: string): number[]
  readonly vocabulary: Vocabulary
}

export function createPieceTokenizer(vocabulary: Vocabulary): PieceTokenizer {
  const root = node()
  for (let id = RESERVED_PIECES; id < vocabulary.length; id++) {
    const [piece, score] = vocabulary[id]
    let at = root
    for (const symbol of piece) {
      const code = symbol.codePointAt(0)!
      let next = at.children.get(code)
      if (!next) at.children.set(code, (next = node()))
      at = next
    }
    at.id = id
    at.score = score
  }

  function encode(text: string): number[] {
    const normalized = text.normalize('NFKC')
    if (normalized.length === 0) return []
    const symbols = Array.from(WORD_MARK + normalized.replaceAll(' ', WORD_MARK), (s) => s.codePointAt(0)!)
    const n = symbols.length
    // best[end]: score of the best segmentation of symbols[0, end); piece[end]: the id of its last piece.
    const best = new Float64Array(n + 1)
    const piece = new Int32Array(n + 1)
    for (let start = 0; start < n; start++) {
      let found = false
      let at: TrieNode | undefined = root.children.get(symbols[start])
      for (let end = start + 1; at; end++) {
        if (at.id >= 0) {
          relax(best, piece, start, end, at.id, at.score)
          found = true
        }
        at = end < n ? at.children.get(symbols[end]) : undefined
      }
      // No piece starts here: the character alone, as the unknown id with score 0.
      if (!found) relax(best, piece, start, start + 1, 0, 0)
    }
    const ids: number[] = []
    // Stepped back by each piece's length in UTF-16 units, as the reference does (the same for all but
    // pieces outside the Basic Multilingual Plane).
    for (let end = n; end > 0; end -= vocabulary[piece[end]][0].length) ids.push(piece[end])
    ids.reverse()
    // Consecutive unknowns are one.
    return ids.filter((id, i) => !(id === 0 && i > 0 && ids[i - 1] === 0))
  }

  return { encode, vocabulary }
}

/**
 * A piece over [start, end): kept when it is the first to reach `end` or scores at least as well (a later
 * start wins a tie). Starts are visited in ascending order, the order the reference compares them in.
 */
function relax(best: Float64Array, piece: Int32Array, start: number, end: number, id: number, score: number) {
  const total = score + best[start]
  if (best[end] === 0 || total >= best[end]) {
    best[end] = total
    piece[end] = id
  }
}
