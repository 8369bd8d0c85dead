/**
 * The builtin embedding engine: signed feature hashing of words, word pairs and character n-grams
 * (./hashed-features.ts) into 1024 dimensions. No model to download, no network, deterministic, and a few
 * thousand 1 KB texts a second on one core; it matches texts by shared vocabulary and spelling, not by
 * meaning across different words, which is what the `onnx` and `upstream` engines are for.
 *
 * `task` changes nothing: the vectors are symmetric (a query and a passage with the same words get the
 * same vector), so there is no query or passage side to adapt.
 */
import type { EmbeddingEngine, Embeddings, EmbedOptions } from '../engines'
import { FeatureTable } from './feature-table'
import { addFeatures, featureVector, unitVector } from './hashed-features'
import { normalizeText } from './terms'

export const HASHED_EMBEDDINGS_MODEL = 'builtin-hashed-ngrams-1024'
export const HASHED_EMBEDDINGS_DIMENSIONS = 1024

/**
 * With late chunking each chunk's vector is its own vector plus this much of the whole document's (the
 * vector of all chunks' features counted together), renormalised: a chunk keeps what it says itself and
 * leans towards its document's topic, so a chunk that says "it" about a subject named elsewhere is still
 * found by that subject's name.
 */
export const LATE_CHUNKING_CONTEXT_WEIGHT = 0.25

const YIELD_AFTER_MS = 20

export function createHashedEmbeddings(): EmbeddingEngine {
  const table = new FeatureTable()

  const embedOne = (normalized: string) => {
    table.reset()
    addFeatures(table, normalized)
    return featureVector(table, HASHED_EMBEDDINGS_DIMENSIONS)
  }

  return {
    kind: 'builtin',
    dimensions: HASHED_EMBEDDINGS_DIMENSIONS,
    maxInputTokens: 8192,
    supportsLateChunking: true,
    async embed(texts: string[], options: EmbedOptions): Promise<Embeddings> {
      const normalized = texts.map(normalizeText)
      const vectors: Float32Array[] = []
      let sliceStarted = performance.now()
      for (const text of normalized) {
        vectors.push(embedOne(text))
        // A large batch is a second of work: let other requests in between texts (each text's use of the
        // shared table is synchronous, so interleaved calls cannot mix their features).
        if (performance.now() - sliceStarted > YIELD_AFTER_MS) {
          await new Promise((resolve) => setImmediate(resolve))
          sliceStarted = performance.now()
        }
      }
      if (!options.lateChunking || texts.length === 0) return { model: HASHED_EMBEDDINGS_MODEL, vectors }

      table.reset()
      for (const chunk of normalized) addFeatures(table, chunk)
      const document = featureVector(table, HASHED_EMBEDDINGS_DIMENSIONS)
      const withContext = vectors.map((chunk) => {
        const mixed = new Float64Array(chunk.length)
        for (let i = 0; i < chunk.length; i++) mixed[i] = chunk[i] + LATE_CHUNKING_CONTEXT_WEIGHT * document[i]
        return unitVector(mixed)
      })
      return { model: HASHED_EMBEDDINGS_MODEL, vectors: withContext }
    },
  }
}
