/** The model's output for a batch: `batch × sequenceLength × hiddenSize` floats, row-major. */
export interface TokenStates {
  data: Float32Array
  sequenceLength: number
  hiddenSize: number
}

/** Mean of the token vectors `start` to `end - 1` of row `row`: padding is never inside a span. */
export function meanPool(states: TokenStates, row: number, start: number, end: number): Float64Array {
  const { data, sequenceLength, hiddenSize } = states
  const mean = new Float64Array(hiddenSize)
  for (let token = start; token < end; token++) {
    const at = (row * sequenceLength + token) * hiddenSize
    for (let k = 0; k < hiddenSize; k++) mean[k] += data[at + k]
  }
  for (let k = 0; k < hiddenSize; k++) mean[k] /= end - start
  return mean
}
