/**
 * The metering tokenizer: every product counts (and truncates) its inputs in cl100k_base tokens, whatever
 * engine computes the answer, so a caller is charged the same for the same text everywhere.
 * `gpt-tokenizer` is pure JavaScript (edge-safe) and exact.
 */
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base'
import { loadTokenizer } from './segment-tokenizers'
import { groupTokens, limitGroups } from './segment-tokens'

/** Special-token text (`<|endoftext|>`) in an input is ordinary text here, never a control token. */
const asPlainText = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() }

export function countTokens(text: string): number {
  return countCl100k(text, asPlainText)
}

/**
 * The longest prefix of `text` of whole characters that is at most `maxTokens` tokens, and its count. Cut
 * from the text itself: the package's `decode` shares one streaming decoder between calls, so decoding a
 * cut inside a character would corrupt the next caller's text.
 */
export async function truncateToTokens(text: string, maxTokens: number): Promise<{ text: string; tokens: number }> {
  const tokenizer = await loadTokenizer('cl100k_base')
  const ids = tokenizer.encode(text)
  if (ids.length <= maxTokens) return { text, tokens: ids.length }
  const kept = limitGroups(groupTokens(text, ids, tokenizer.tokenBytes), maxTokens, 'head')
  return {
    text: text.slice(0, kept.at(-1)?.end ?? 0),
    tokens: kept.reduce((sum, group) => sum + group.ids.length, 0),
  }
}
