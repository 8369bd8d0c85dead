import { searchLimits } from '~/contracts/search'

const { maxChunkLength } = searchLimits
import type { SegmentValues } from './segment-examples'

/** The maximum chunk length typed, if it is a whole number the API accepts. */
export function chunkLength(text: string): number | undefined {
  if (!/^\d+$/.test(text.trim())) return undefined
  const n = Number(text)
  return n >= 1 && n <= maxChunkLength ? n : undefined
}

/** The /v1/segment body the form stands for: always with tokens (they are what the demo shows). */
export function segmentRequest(values: SegmentValues) {
  return {
    content: values.content,
    tokenizer: values.tokenizer,
    return_tokens: true,
    return_chunks: values.chunks,
    ...(values.chunks && { max_chunk_length: Number(values.maxChunkLength.trim()) }),
  }
}

export type SegmentBody = ReturnType<typeof segmentRequest>
export type { SegmentAnswer } from '~/contracts/search'
