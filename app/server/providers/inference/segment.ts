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
import type { segmentAnswer, segmentBody, segmentFields } from '~/contracts/search'
import { JsonText } from '../../paced-json'
import { chunkText } from './segment-chunks'
import { loadTokenizer, type Tokenizer } from './segment-tokenizers'
import { runPaced, yieldToLoop } from '../../paced'
import { groupTokenSteps, limitGroups, type TokenGroup } from './segment-tokens'

/** A validated request's options (`segmentBody`'s output, so with its defaults filled in) but its content. */
export type SegmentOptions = Pick<v.InferOutput<typeof segmentBody>, Exclude<(typeof segmentFields)[number], 'content'>>
/** The answer, its `tokens` as JSON text (../../paced-json.ts): half a million entries for a long text. */
export type Segmentation = Omit<v.InferOutput<typeof segmentAnswer>, 'tokens'> & { tokens?: JsonText }

/** Token entries ([text, ids]) written to JSON in batches as they come, so few are alive at once. */
class EntriesJson {
  private readonly parts: string[] = []
  private batch: [string, number[]][] = []

  readonly add = (group: TokenGroup) => {
    this.batch.push([group.text, group.ids])
    if (this.batch.length >= 2048) this.flush()
  }

  private flush() {
    if (this.batch.length > 0) this.parts.push(JSON.stringify(this.batch).slice(1, -1))
    this.batch = []
  }

  text(): string {
    this.flush()
    return `[${this.parts.join(',')}]`
  }
}

/** The entries of `groups`, or of all of `text`'s tokens, as JSON. */
async function entriesJson(tokenizer: Tokenizer, text: string, ids?: number[]): Promise<string> {
  const entries = new EntriesJson()
  const all = ids ?? (await tokenizer.encode(text))
  await runPaced(groupTokenSteps(text, all, tokenizer.tokenBytes, undefined, entries.add))
  return entries.text()
}

function groupsJson(groups: TokenGroup[]): string {
  const entries = new EntriesJson()
  for (const group of groups) entries.add(group)
  return entries.text()
}

/** Each chunk's own tokens, one chunk at a time with the event loop given a turn between them. */
async function chunkTokens(tokenizer: Tokenizer, chunks: string[]): Promise<JsonText> {
  const perChunk: string[] = []
  for (const chunk of chunks) {
    perChunk.push(await entriesJson(tokenizer, chunk))
    if (perChunk.length % 64 === 0) await yieldToLoop()
  }
  return new JsonText(`[${perChunk.join(',')}]`)
}

export async function segment(content: string, options: SegmentOptions): Promise<Segmentation> {
  const name = options.tokenizer
  const tokenizer = await loadTokenizer(name)
  const ids = await tokenizer.encode(content)
  const answer: Segmentation = { num_tokens: ids.length, tokenizer: name, usage: { tokens: ids.length } }
  if (!options.return_tokens && !options.return_chunks) return answer

  const limited = options.head !== undefined || options.tail !== undefined
  if (!limited && !options.return_chunks)
    return { ...answer, tokens: new JsonText(await entriesJson(tokenizer, content, ids)) }
  // Chunks of the whole content need no groups of its tokens (half a million objects for a long run).
  let kept: TokenGroup[] = []
  if (limited) kept = await runPaced(groupTokenSteps(content, ids, tokenizer.tokenBytes, options.head))
  if (options.head !== undefined) kept = limitGroups(kept, options.head, 'head')
  else if (options.tail !== undefined) kept = limitGroups(kept, options.tail, 'tail')

  if (!options.return_chunks) return { ...answer, tokens: new JsonText(groupsJson(kept)) }

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
