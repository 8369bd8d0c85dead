import { unitVector } from '../unit-vector'
import { meanPool } from './pooling'
import type { LoadedModel } from './runtime'
import { lateChunkWindows, oneSequencePerInput, type Span } from './sequences'

/** Sequences per session run: enough to keep the runtime's threads busy, few enough to bound its memory. */
export const batchSize = 32

/** One unit vector per text: mean of its tokens' vectors (over the attention mask), L2-normalised. */
export async function embedTexts(model: LoadedModel, texts: string[], lateChunking: boolean): Promise<Float32Array[]> {
  const tokens = texts.map((text) => model.tokenize(text))
  const { sequences, spans } = lateChunking
    ? lateChunkWindows(tokens, model.frame)
    : oneSequencePerInput(tokens, model.frame)
  const spansOf = new Map<number, Array<{ input: number; span: Span }>>()
  spans.forEach((span, input) => spansOf.set(span.sequence, [...(spansOf.get(span.sequence) ?? []), { input, span }]))

  const vectors = new Array<Float32Array>(texts.length)
  // Similar lengths share a batch, so little of each run is padding; each batch is pooled before the next runs,
  // so memory holds one batch of token vectors, not the whole request's.
  const order = sequences.map((_, i) => i).sort((a, b) => sequences[a].length - sequences[b].length)
  for (let from = 0; from < order.length; from += batchSize) {
    const batch = order.slice(from, from + batchSize)
    const states = await model.run(batch.map((sequence) => sequences[sequence]))
    batch.forEach((sequence, row) => {
      for (const { input, span } of spansOf.get(sequence) ?? []) {
        const vector = unitVector(meanPool(states, row, span.start, span.end))
        if (!vector) throw new Error(`onnx engine: the model gave input ${input} a zero or non-finite vector`)
        vectors[input] = vector
      }
    })
  }
  return vectors
}
