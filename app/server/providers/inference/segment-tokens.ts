/**
 * Token ids of a text, grouped so every group's text is whole characters: a character whose UTF-8 bytes
 * are split across tokens (an emoji, much CJK text under older encodings) shows once, with all the ids that
 * together spell it. Each group's text is cut from the encoded text at its own position, so the groups
 * joined are exactly that text.
 */
import { runToEnd } from '../../paced'

export interface TokenGroup {
  text: string
  ids: number[]
  /** Where the group's text starts and ends in the encoded text, [start, end) in UTF-16 code units. */
  start: number
  end: number
}

function utf8Width(codePoint: number): number {
  // Lone surrogates (0xd800–0xdfff) are 3 bytes, as the encoder's TextEncoder writes U+FFFD for them.
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4
}

/** Groups `ids` (the encoding of `text`) by the bytes each token stands for (`tokenBytes[id]`). */
export function groupTokens(text: string, ids: number[], tokenBytes: Uint16Array): TokenGroup[] {
  return runToEnd(groupTokenSteps(text, ids, tokenBytes))
}

/**
 * `groupTokens` as paced work (../../paced.ts): it yields every few thousand tokens. With `headIds`, it
 * stops once its groups hold more than that many ids: enough for `limitGroups(…, headIds, 'head')`
 * without grouping the rest of a long text. With `onGroup`, each group goes there instead of into the
 * answer, so a long text's groups need not all live at once.
 */
export function* groupTokenSteps(
  text: string,
  ids: number[],
  tokenBytes: Uint16Array,
  headIds = Number.POSITIVE_INFINITY,
  onGroup?: (group: TokenGroup) => void,
): Generator<void, TokenGroup[]> {
  const groups: TokenGroup[] = []
  let groupIds: number[] = []
  let groupStart = 0
  let index = 0
  let textBytes = 0
  let tokenTotal = 0
  for (const [at, id] of ids.entries()) {
    if (at > headIds) return groups
    if (at % 4096 === 4095) yield
    const bytes = tokenBytes[id]
    if (!bytes) throw new Error(`token ${id} is not in the tokenizer's vocabulary`)
    tokenTotal += bytes
    groupIds.push(id)
    while (textBytes < tokenTotal && index < text.length) {
      const codePoint = text.codePointAt(index)!
      textBytes += utf8Width(codePoint)
      index += codePoint > 0xffff ? 2 : 1
    }
    if (textBytes === tokenTotal) {
      const group = { text: text.slice(groupStart, index), ids: groupIds, start: groupStart, end: index }
      if (onGroup) onGroup(group)
      else groups.push(group)
      groupIds = []
      groupStart = index
    }
  }
  if (groupIds.length > 0 || index !== text.length || textBytes !== tokenTotal)
    throw new Error('the tokens do not spell the text they were encoded from')
  return groups
}

/** The longest run of whole groups from the start (`head`) or the end (`tail`) with at most `count` ids. */
export function limitGroups(groups: TokenGroup[], count: number, from: 'head' | 'tail'): TokenGroup[] {
  let ids = 0
  if (from === 'head') {
    let end = 0
    while (end < groups.length && ids + groups[end].ids.length <= count) ids += groups[end++].ids.length
    return groups.slice(0, end)
  }
  let start = groups.length
  while (start > 0 && ids + groups[start - 1].ids.length <= count) ids += groups[--start].ids.length
  return groups.slice(start)
}
