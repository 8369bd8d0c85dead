/**
 * The metering tokenizer: every product counts (and truncates) its inputs in cl100k_base tokens, whatever
 * engine computes the answer, so a caller is charged the same for the same text everywhere. Pure
 * JavaScript (edge-safe), exact, linear in the text's length and paced (./segment-tokenizers.ts), so a long
 * input costs its length in time and never holds the event loop. Special-token text (`<|endoftext|>`) in an
 * input is ordinary text here, never a control token.
 */
import { runPaced } from '../../paced'
import { loadCl100k } from './cl100k'
import { groupTokenSteps, limitGroups } from './segment-tokens'

// Loaded as the server starts (its tables are a large module), not on a caller's first request.
void loadCl100k().catch(() => undefined)

export async function countTokens(text: string): Promise<number> {
  const tokenizer = await loadCl100k()
  return (await tokenizer.encode(text)).length
}

/**
 * A text's count and, when it is over `maxTokens`, its cut: the longest prefix of whole characters that is
 * at most `maxTokens` tokens, and its count. One encoding, whether the text is then refused or cut. Cut
 * from the text itself: the package's `decode` shares one streaming decoder between calls, so decoding a
 * cut inside a character would corrupt the next caller's text.
 */
export async function measureText(
  text: string,
  maxTokens: number,
): Promise<{ tokens: number; cut?: { text: string; tokens: number } }> {
  const tokenizer = await loadCl100k()
  const ids = await tokenizer.encode(text)
  if (ids.length <= maxTokens) return { tokens: ids.length }
  // Only the groups of the head are built: a 4,000,000-character input is two million tokens.
  const head = await runPaced(groupTokenSteps(text, ids, tokenizer.tokenBytes, maxTokens))
  const kept = limitGroups(head, maxTokens, 'head')
  const cut = { text: text.slice(0, kept.at(-1)?.end ?? 0), tokens: kept.reduce((sum, g) => sum + g.ids.length, 0) }
  return { tokens: ids.length, cut }
}
