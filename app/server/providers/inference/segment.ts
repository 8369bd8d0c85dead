/**
 * The segmenter behind /v1/segment: counts a content's tokens in the chosen tokenizer and, when asked,
 * returns them and splits the content into chunks (./segment-chunks.ts). The options and the answer are
 * `segmentBody` and `segmentAnswer` of the wire contract; the content has been validated there.
 *
 * - `num_tokens` (and `usage.tokens`) count the whole content, whatever `head` or `tail` say.
 * - `head`/`tail` keep the first/last n tokens, rounded down to whole characters (a character spelled by
 *   several tokens is kept whole or not at all), so the kept tokens never exceed n; with chunks, only the
 *   content those tokens cover is chunked, and the positions stay positions in the whole content.
 * - With chunks and `return_tokens`, each chunk's tokens are the chunk encoded on its own, so they spell
 *   exactly that chunk; at the seams between chunks they can differ from the whole content's tokens.
 */
import type * as v from 'valibot'
import type { segmentAnswer, segmentBody } from '~/contracts/search'
import { chunkText } from './segment-chunks'
import { loadTokenizer, type Tokenizer } from './segment-tokenizers'
import { runPaced, yieldToLoop } from '../../paced'
import { groupTokenSteps, limitGroups, type TokenGroup } from './segment-tokens'

/** A validated request's options (`segmentBody`'s output, so with its defaults filled in) but its content. */
export type SegmentOptions = Omit<v.InferOutput<typeof segmentBody>, 'content'>
export type Segmentation = v.InferOutput<typeof segmentAnswer>
type TokenEntry = [string, number[]]

const asEntries = (groups: TokenGroup[]): TokenEntry[] => groups.map((group) => [group.text, group.ids])

async function tokensOf(tokenizer: Tokenizer, text: string): Promise<TokenGroup[]> {
  return runPaced(groupTokenSteps(text, await tokenizer.encode(text), tokenizer.tokenBytes))
}

/** Each chunk's own tokens, one chunk at a time with the event loop given a turn between them. */
async function chunkTokens(tokenizer: Tokenizer, chunks: string[]): Promise<TokenEntry[][]> {
  const entries: TokenEntry[][] = []
  for (const chunk of chunks) {
    entries.push(asEntries(await tokensOf(tokenizer, chunk)))
    if (entries.length % 64 === 0) await yieldToLoop()
  }
  return entries
}

export async function segment(content: string, options: SegmentOptions): Promise<Segmentation> {
  const name = options.tokenizer
  const tokenizer = await loadTokenizer(name)
  const ids = await tokenizer.encode(content)
  const answer: Segmentation = { num_tokens: ids.length, tokenizer: name, usage: { tokens: ids.length } }
  if (!options.return_tokens && !options.return_chunks) return answer

  const limited = options.head !== undefined || options.tail !== undefined
  // Chunks of the whole content need no groups of its tokens (half a million objects for a long run).
  let kept: TokenGroup[] = []
  if (limited || !options.return_chunks)
    kept = await runPaced(groupTokenSteps(content, ids, tokenizer.tokenBytes, options.head))
  if (options.head !== undefined) kept = limitGroups(kept, options.head, 'head')
  else if (options.tail !== undefined) kept = limitGroups(kept, options.tail, 'tail')

  if (!options.return_chunks) return { ...answer, tokens: asEntries(kept) }

  const covered = !limited
    ? [0, content.length]
    : kept.length === 0
      ? [0, 0]
      : [kept[0].start, kept[kept.length - 1].end]
  const positions = chunkText(content, options.max_chunk_length, covered[0], covered[1])
  const chunks = positions.map(([start, end]) => content.slice(start, end))
  return {
    ...answer,
    num_chunks: chunks.length,
    chunk_positions: positions,
    chunks,
    ...(options.return_tokens && { tokens: await chunkTokens(tokenizer, chunks) }),
  }
}
