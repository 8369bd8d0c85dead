import { unitVector } from '../unit-vector'
import { meanPool } from './pooling'
import type { LoadedModel } from './runtime'
import { lateChunkWindows, oneSequencePerInput, type Span } from './sequences'

/** Sequences per session run: enough to keep the runtime's threads busy, few enough to bound its memory. */
export const batchSize = 32

export interface TextEmbeddings {
  vectors: Float32Array[]
  /** Per input, its tokens' unit vectors (ColBERT-style), when asked for. */
  tokenVectors?: Float32Array[][]
}

export interface EmbedTextOptions {
  lateChunking: boolean
  /** false: the mean of the token vectors as it is; otherwise scaled to unit length. */
  normalized?: boolean
  tokenVectors?: boolean
  /** The task adapter's index, for models that take a `task_id` input. */
  taskId?: number
}

/** One vector per text: mean of its tokens' vectors (over the attention mask), L2-normalised unless asked not to. */
export async function embedTexts(
  model: LoadedModel,
  texts: string[],
  options: EmbedTextOptions,
): Promise<TextEmbeddings> {
  const tokens = texts.map((text) => model.tokenize(text))
  const { sequences, spans } = options.lateChunking
    ? lateChunkWindows(tokens, model.frame)
    : oneSequencePerInput(tokens, model.frame)
  const spansOf = new Map<number, Array<{ input: number; span: Span }>>()
  spans.forEach((span, input) => spansOf.set(span.sequence, [...(spansOf.get(span.sequence) ?? []), { input, span }]))

  const vectors = new Array<Float32Array>(texts.length)
  const tokenVectors = options.tokenVectors ? new Array<Float32Array[]>(texts.length) : undefined
  // Similar lengths share a batch, so little of each run is padding; each batch is pooled before the next runs,
  // so memory holds one batch of token vectors, not the whole request's.
  const order = sequences.map((_, i) => i).sort((a, b) => sequences[a].length - sequences[b].length)
  for (let from = 0; from < order.length; from += batchSize) {
    const batch = order.slice(from, from + batchSize)
    const states = await model.run(
      batch.map((sequence) => sequences[sequence]),
      options.taskId,
    )
    batch.forEach((sequence, row) => {
      for (const { input, span } of spansOf.get(sequence) ?? []) {
        const mean = meanPool(states, row, span.start, span.end)
        const vector = options.normalized === false ? checkedRaw(mean) : unitVector(mean)
        if (!vector) throw new Error(`onnx engine: the model gave input ${input} a zero or non-finite vector`)
        vectors[input] = vector
        if (tokenVectors) {
          tokenVectors[input] = []
          for (let token = span.start; token < span.end; token++) {
            const one = unitVector(meanPool(states, row, token, token + 1))
            if (one) tokenVectors[input].push(one)
          }
        }
      }
    })
  }
  return { vectors, tokenVectors }
}

function checkedRaw(values: Float64Array): Float32Array | undefined {
  if (!values.every(Number.isFinite) || values.every((value) => value === 0)) return undefined
  return Float32Array.from(values)
}
