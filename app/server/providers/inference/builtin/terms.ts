/**
 * The terms the builtin engines see in a text. A term is a run of letters, digits and combining marks
 * (so "l'été" gives "l" and "été"); scripts written without spaces (Han, Hiragana, Katakana) and Hangul,
 * whose words carry attached particles, give overlapping character bigrams instead ("東京都" gives "東京"
 * and "京都"), the usual way to index CJK text without a dictionary. A lone CJK character is its own term.
 * Terms are reported as spans of the normalised text, so callers hash them in place without allocating.
 */

/** NFKC folds compatibility forms (full-width Latin, ligatures, half-width Katakana) before lower-casing. */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase()
}

const OTHER = 1
const WORD = 2
const CJK = 3

const wordCharacter = /^[\p{L}\p{N}\p{M}]$/u
const cjkCharacter = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]$/u

function classify(codePoint: number): number {
  const character = String.fromCodePoint(codePoint)
  if (!wordCharacter.test(character)) return OTHER
  return cjkCharacter.test(character) ? CJK : WORD
}

// Classifying a code point takes two regex tests; caching the answer keeps the scan to a table look-up.
const bmpClasses = new Uint8Array(0x10000)
const astralClasses = new Map<number, number>()

function classAt(codePoint: number): number {
  if (codePoint < 0x10000) {
    let cls = bmpClasses[codePoint]
    if (cls === 0) bmpClasses[codePoint] = cls = classify(codePoint)
    return cls
  }
  let cls = astralClasses.get(codePoint)
  if (cls === undefined) astralClasses.set(codePoint, (cls = classify(codePoint)))
  return cls
}

/** Receives each term as `text[start, end)`; `cjk` marks a character bigram (or a lone CJK character). */
export type TermVisitor = (start: number, end: number, cjk: boolean) => void

/** Calls `visit` for every term of an already normalised text, in order. Returns how many terms it saw. */
export function forEachTerm(text: string, visit: TermVisitor): number {
  let terms = 0
  let wordStart = -1
  // The CJK run in progress: where its last character starts, and whether it has had a bigram yet.
  let cjkPrevious = -1
  let cjkPaired = false

  const endCjkRun = (end: number) => {
    if (cjkPrevious >= 0 && !cjkPaired) {
      visit(cjkPrevious, end, true)
      terms++
    }
    cjkPrevious = -1
    cjkPaired = false
  }

  for (let i = 0; i < text.length;) {
    const codePoint = text.codePointAt(i)!
    const width = codePoint > 0xffff ? 2 : 1
    const cls = classAt(codePoint)
    if (cls !== WORD && wordStart >= 0) {
      visit(wordStart, i, false)
      terms++
      wordStart = -1
    }
    if (cls !== CJK) endCjkRun(i)
    if (cls === WORD && wordStart < 0) wordStart = i
    if (cls === CJK) {
      if (cjkPrevious >= 0) {
        visit(cjkPrevious, i + width, true)
        terms++
        cjkPaired = true
      }
      cjkPrevious = i
    }
    i += width
  }
  if (wordStart >= 0) {
    visit(wordStart, text.length, false)
    terms++
  }
  endCjkRun(text.length)
  return terms
}

/** The terms of a raw text as strings, for callers that count them in maps (BM25). */
export function termsOf(text: string): string[] {
  const normalized = normalizeText(text)
  const terms: string[] = []
  forEachTerm(normalized, (start, end) => terms.push(normalized.slice(start, end)))
  return terms
}
