/**
 * The metering tokenizer: every product counts (and truncates) its inputs in cl100k_base tokens, whatever
 * engine computes the answer, so a caller is charged the same for the same text everywhere.
 * `gpt-tokenizer` is pure JavaScript (edge-safe) and exact.
 */
import { countTokens as countCl100k, decode, encode } from 'gpt-tokenizer/encoding/cl100k_base'

/** Special-token text (`<|endoftext|>`) in an input is ordinary text here, never a control token. */
const asPlainText = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() }

export function countTokens(text: string): number {
  return countCl100k(text, asPlainText)
}

/** The longest prefix of `text` that is at most `maxTokens` tokens, and its token count. */
export function truncateToTokens(text: string, maxTokens: number): { text: string; tokens: number } {
  const ids = encode(text, asPlainText)
  if (ids.length <= maxTokens) return { text, tokens: ids.length }
  return { text: decode(ids.slice(0, maxTokens)), tokens: maxTokens }
}
