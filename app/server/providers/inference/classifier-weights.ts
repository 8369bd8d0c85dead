/**
 * A trained classifier's weights and their storage format. Version 1, all integers and floats little-endian:
 *
 *   "CLFW" · u8 version (1) · 3 zero bytes · u32 label count L · u32 dimensions D
 *   · L × (u32 byte length · UTF-8 label) · L·D float32 weights (row per label) · L float32 biases
 *
 * Decoding accepts exactly that and nothing else (wrong magic, unknown version, truncated or trailing
 * bytes, invalid UTF-8, repeated labels, non-finite numbers are all errors), so corrupt storage is
 * noticed where it is read instead of classifying with garbage.
 */

export interface ClassifierWeights {
  labels: string[]
  dimensions: number
  /** labels × dimensions, the row of label i at i · dimensions. */
  weights: Float32Array
  bias: Float32Array
}

const MAGIC = [0x43, 0x4c, 0x46, 0x57] // "CLFW"
const VERSION = 1
const HEADER_BYTES = 16
// Far above what the API allows (16 labels, a few thousand dimensions); only a corrupt header exceeds them.
const MAX_LABELS = 65_536
const MAX_DIMENSIONS = 65_536

function fail(problem: string): never {
  throw new Error(`classifier weights: ${problem}`)
}

/** Throws unless the weights are consistent: distinct non-empty labels, matching sizes, finite numbers. */
export function checkWeights({ labels, dimensions, weights, bias }: ClassifierWeights): void {
  if (labels.length === 0 || labels.length > MAX_LABELS) fail(`${labels.length} labels`)
  if (labels.some((label) => typeof label !== 'string' || label.length === 0)) fail('an empty label')
  if (new Set(labels).size !== labels.length) fail('a repeated label')
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS) fail(`${dimensions} dimensions`)
  if (weights.length !== labels.length * dimensions)
    fail(`${weights.length} weights for ${labels.length} labels of ${dimensions} dimensions`)
  if (bias.length !== labels.length) fail(`${bias.length} biases for ${labels.length} labels`)
  if (!weights.every(Number.isFinite) || !bias.every(Number.isFinite)) fail('a number that is not finite')
}

export function encodeWeights(model: ClassifierWeights): Uint8Array {
  checkWeights(model)
  const encoder = new TextEncoder()
  const labelBytes = model.labels.map((label) => encoder.encode(label))
  const size =
    HEADER_BYTES +
    labelBytes.reduce((sum, bytes) => sum + 4 + bytes.length, 0) +
    4 * (model.weights.length + model.bias.length)
  const bytes = new Uint8Array(size)
  const view = new DataView(bytes.buffer)
  bytes.set(MAGIC, 0)
  view.setUint8(4, VERSION)
  view.setUint32(8, model.labels.length, true)
  view.setUint32(12, model.dimensions, true)
  let offset = HEADER_BYTES
  for (const label of labelBytes) {
    view.setUint32(offset, label.length, true)
    bytes.set(label, offset + 4)
    offset += 4 + label.length
  }
  for (const value of model.weights) offset = writeFloat(view, offset, value)
  for (const value of model.bias) offset = writeFloat(view, offset, value)
  return bytes
}

function writeFloat(view: DataView, offset: number, value: number): number {
  view.setFloat32(offset, value, true)
  return offset + 4
}

export function decodeWeights(bytes: Uint8Array): ClassifierWeights {
  if (bytes.length < HEADER_BYTES) fail(`${bytes.length} bytes is shorter than the header`)
  if (MAGIC.some((byte, i) => bytes[i] !== byte)) fail('not a classifier weights blob (wrong magic)')
  if (bytes[4] !== VERSION) fail(`unknown format version ${bytes[4]}`)
  if (bytes[5] !== 0 || bytes[6] !== 0 || bytes[7] !== 0) fail('reserved header bytes are not zero')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const labelCount = view.getUint32(8, true)
  const dimensions = view.getUint32(12, true)
  if (labelCount === 0 || labelCount > MAX_LABELS) fail(`${labelCount} labels`)
  if (dimensions === 0 || dimensions > MAX_DIMENSIONS) fail(`${dimensions} dimensions`)

  const decoder = new TextDecoder('utf-8', { fatal: true })
  const labels: string[] = []
  let offset = HEADER_BYTES
  for (let i = 0; i < labelCount; i++) {
    if (offset + 4 > bytes.length) fail(`truncated before label ${i}`)
    const length = view.getUint32(offset, true)
    offset += 4
    if (offset + length > bytes.length) fail(`truncated inside label ${i}`)
    try {
      labels.push(decoder.decode(bytes.subarray(offset, offset + length)))
    } catch {
      fail(`label ${i} is not valid UTF-8`)
    }
    offset += length
  }

  const floats = labelCount * (dimensions + 1)
  if (bytes.length - offset !== 4 * floats)
    fail(`${bytes.length - offset} bytes of numbers where ${4 * floats} were expected`)
  const weights = new Float32Array(labelCount * dimensions)
  const bias = new Float32Array(labelCount)
  for (let i = 0; i < weights.length; i++, offset += 4) weights[i] = view.getFloat32(offset, true)
  for (let i = 0; i < bias.length; i++, offset += 4) bias[i] = view.getFloat32(offset, true)
  const model = { labels, dimensions, weights, bias }
  checkWeights(model)
  return model
}
