/** One batch of a job's normalised input: its texts, the callers' ids, and the index of its first text. */
export interface InputBatch {
  index: number
  first: number
  texts: string[]
  ids: Array<string | undefined>
  /** Metering tokens of the batch's texts (counted at upload). */
  tokens: number
}

/**
 * The stored input (JSON lines of `{t, i?, n}`: text, id, tokens) as batches of `size`, starting at batch `from`: the rows of
 * the batches before it are read past, not kept, so a resumed job costs one pass over the file.
 */
export async function* inputBatches(
  input: AsyncIterable<Uint8Array>,
  size: number,
  from: number,
): AsyncGenerator<InputBatch> {
  const decoder = new TextDecoder()
  let rest = ''
  let row = 0
  let batch: InputBatch = { index: from, first: from * size, texts: [], ids: [], tokens: 0 }
  const take = (line: string) => {
    if (!line) return
    if (row++ < from * size) return
    const { t, i, n } = JSON.parse(line) as { t: string; i?: string; n: number }
    batch.texts.push(t)
    batch.ids.push(i)
    batch.tokens += n
  }
  for await (const chunk of input) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) {
      take(line)
      if (batch.texts.length === size) {
        yield batch
        batch = { index: batch.index + 1, first: batch.first + size, texts: [], ids: [], tokens: 0 }
      }
    }
  }
  take(rest + decoder.decode())
  if (batch.texts.length > 0) yield batch
}
