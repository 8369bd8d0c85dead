import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve } from 'node:path'

/**
 * A local embedding model as transformers.js reads it from disk: `<modelsDir>/<model>/` holding `config.json`,
 * `tokenizer.json`, `tokenizer_config.json` (transformers.js ignores tokenizer.json without it) and
 * `onnx/model.onnx` (the fp32 file; other dtypes would look for `model_quantized.onnx`, `model_fp16.onnx`, ...).
 * Checked and read synchronously when the engine is built, so a wrong folder stops the server at start-up
 * with the path in the message, and `dimensions` is known before the first request.
 */
export interface ModelFiles {
  /** Absolute folder of the model. */
  dir: string
  /** Width of the model's token vectors (config.json `hidden_size`). */
  hiddenSize: number
  /** Longest sequence the model takes, special tokens included, in its own tokens. */
  contextTokens: number
  /**
   * `embedding`: token vectors, mean-pooled (and per token for multi-vector output); `cross-encoder`: a
   * sequence-classification head scoring a query and a document read together (config.json `architectures`
   * names a `…ForSequenceClassification`).
   */
  family: 'embedding' | 'cross-encoder'
  /** Task adapters in `task_id` order (config.json `lora_adaptations`, as the original's v3 export names them). */
  tasks: string[]
}

export const requiredFiles = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx'] as const

/** When config.json names no `max_position_embeddings`: the usual BERT-family context. */
const defaultContextTokens = 512

export function readModelFiles(modelsDir: string, embeddingModel: string): ModelFiles {
  const root = resolve(modelsDir)
  const dir = resolve(root, embeddingModel)
  const inside = relative(root, dir)
  if (!embeddingModel || inside === '' || inside.startsWith('..') || isAbsolute(inside))
    throw new Error(`onnx engine: the model "${embeddingModel}" must name a folder inside ${root}`)
  if (!existsSync(dir)) throw new Error(`onnx engine: no model folder at ${dir} (nothing is downloaded: put it there)`)
  const missing = requiredFiles.filter((file) => !existsSync(join(dir, file)))
  if (missing.length > 0) throw new Error(`onnx engine: the model folder ${dir} lacks ${missing.join(', ')}`)

  const config = readJson(join(dir, 'config.json'))
  const hiddenSize = config.hidden_size
  if (!isCount(hiddenSize)) throw new Error(`onnx engine: ${join(dir, 'config.json')} has no whole hidden_size`)
  const positions = isCount(config.max_position_embeddings) ? config.max_position_embeddings : defaultContextTokens
  // A tokenizer may declare a shorter limit than the position table (RoBERTa-style tables are 2 longer).
  const tokenizerLimit = readJson(join(dir, 'tokenizer_config.json')).model_max_length
  const contextTokens = isCount(tokenizerLimit) && tokenizerLimit < positions ? tokenizerLimit : positions
  const architectures = Array.isArray(config.architectures) ? config.architectures : []
  const family = architectures.some((name) => String(name).endsWith('ForSequenceClassification'))
    ? 'cross-encoder'
    : 'embedding'
  const adapters = config.lora_adaptations
  const tasks = Array.isArray(adapters) && adapters.every((task) => typeof task === 'string') ? adapters : []
  return { dir, hiddenSize, contextTokens, family, tasks }
}

function readJson(path: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new Error(`onnx engine: ${path} is not readable JSON`, { cause: error })
  }
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`onnx engine: ${path} is not a JSON object`)
  return parsed as Record<string, unknown>
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0
}
