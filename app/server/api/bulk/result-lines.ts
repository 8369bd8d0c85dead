import type { InputBatch } from './input-batches'

/**
 * A batch's lines of the result file: `{"index", "id"?, "embedding"}` per text, in input order. Written by
 * hand around the vector, since JSON.stringify would first copy each Float32Array into an array.
 */
export function resultLines(batch: Pick<InputBatch, 'first' | 'ids'>, vectors: Float32Array[]): Uint8Array {
  let out = ''
  for (let at = 0; at < vectors.length; at++) {
    const id = batch.ids[at]
    const head =
      id === undefined ? `{"index":${batch.first + at},` : `{"index":${batch.first + at},"id":${JSON.stringify(id)},`
    out += `${head}"embedding":[${vectors[at].join(',')}]}\n`
  }
  return new TextEncoder().encode(out)
}
