/**
 * The metering tokenizer: every product counts (and truncates) its inputs in cl100k_base tokens, whatever
 * engine computes the answer, so a caller is charged the same for the same text everywhere. Pure
 * JavaScript (edge-safe), exact, linear in the text's length and paced (./segment-tokenizers.ts), so a long
 * input costs its length in time and never holds the event loop. Special-token text (`<|endoftext|>`) in an
 * input is ordinary text here, never a control token.
 */
import { runPaced } from '../../paced'
import { loadTokenizer } from './segment-tokenizers'
import { groupTokenSteps, limitGroups } from './segment-tokens'

// Loaded as the server starts (its tables are a large module), not on a caller's first request.
void loadTokenizer('cl100k_base').catch(() => undefined)

export async function countTokens(text: string): Promise<number> {
  const tokenizer = await loadTokenizer('cl100k_base')
  return (await tokenizer.encode(text)).length
}

/**
 * The longest prefix of `text` of whole characters that is at most `maxTokens` tokens, and its count. Cut
 * from the text itself: the package's `decode` shares one streaming decoder between calls, so decoding a
 * cut inside a character would corrupt the next caller's text.
 */
export async function truncateToTokens(text: string, maxTokens: number): Promise<{ text: string; tokens: number }> {
  const tokenizer = await loadTokenizer('cl100k_base')
  const ids = await tokenizer.encode(text)
  if (ids.length <= maxTokens) return { text, tokens: ids.length }
  const head = await runPaced(groupTokenSteps(text, ids, tokenizer.tokenBytes, maxTokens))
  const kept = limitGroups(head, maxTokens, 'head')
  return {
    text: text.slice(0, kept.at(-1)?.end ?? 0),
    tokens: kept.reduce((sum, group) => sum + group.ids.length, 0),
  }
}
