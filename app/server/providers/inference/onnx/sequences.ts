/**
 * How tokenised inputs become the model's sequences, and which tokens of which sequence each input's vector
 * is pooled from. Pure functions over token ids, so the packing is checked without a model.
 */

/** The model's special tokens around one sequence (`[CLS] … [SEP]` for BERT) and its length limit. */
export interface Frame {
  prefix: number[]
  suffix: number[]
  contextTokens: number
}

/** Input `i`'s vector is the mean of tokens `start` to `end - 1` of sequence `spans[i].sequence`. */
export interface Span {
  sequence: number
  start: number
  end: number
}

export interface Packed {
  sequences: number[][]
  spans: Span[]
}

/** Room for an input's own tokens in one sequence. */
export function capacity(frame: Frame): number {
  return frame.contextTokens - frame.prefix.length - frame.suffix.length
}

/** Each input on its own, cut to the context, pooled over all its tokens (special ones too, as usual). */
export function oneSequencePerInput(inputs: number[][], frame: Frame): Packed {
  const room = capacity(frame)
  const sequences = inputs.map((ids) => [...frame.prefix, ...ids.slice(0, room), ...frame.suffix])
  return { sequences, spans: sequences.map((ids, sequence) => ({ sequence, start: 0, end: ids.length })) }
}

/**
 * Late chunking: consecutive inputs share one sequence, so each token sees its neighbours, and each input is
 * pooled over its own tokens only. When the inputs together exceed the context, they continue in a next
 * sequence (whole inputs; one longer than the context is cut), so context spans as many neighbours as fit.
 */
export function lateChunkWindows(inputs: number[][], frame: Frame): Packed {
  const room = capacity(frame)
  const windows: number[][] = []
  const placed: Array<{ window: number; offset: number; length: number }> = []
  let current: number[] | undefined
  for (const ids of inputs) {
    const own = ids.slice(0, room)
    if (!current || current.length + own.length > room) {
      current = []
      windows.push(current)
    }
    placed.push({ window: windows.length - 1, offset: current.length, length: own.length })
    current.push(...own)
  }
  const sequences = windows.map((content) => [...frame.prefix, ...content, ...frame.suffix])
  const spans = placed.map(({ window, offset, length }) =>
    // An input without tokens of its own (only spaces) has nothing but its context: the whole sequence.
    length === 0
      ? { sequence: window, start: 0, end: sequences[window].length }
      : { sequence: window, start: frame.prefix.length + offset, end: frame.prefix.length + offset + length },
  )
  return { sequences, spans }
}
