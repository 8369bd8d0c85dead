/**
 * The builtin embedding engine: hashed words, word pairs and character n-grams projected into the served
 * model's width (./hashed-features.ts). No model to download, no network, deterministic, and thousands of
 * 1 KB texts a second on one core; it matches texts by shared vocabulary and spelling, not by meaning across
 * different words, which is what the `onnx` and `upstream` engines are for.
 *
 * It has no task adapters: the vectors are symmetric (a query and a passage with the same words get the same
 * vector), so a `task` is reported as not applied rather than pretended. `normalized: false` answers the raw
 * projection, whose length grows with the text's features. Multi-vector output is one vector per term: the
 * term's own features (itself and its character n-grams), projected into `multiVectorDimensions`.
 */
import type { EmbeddingEngine, Embeddings, EmbedOptions } from '../engines'
import { textsOnly } from '../engines'
import { FeatureTable } from './feature-table'
import { addFeatures, addTermFeatures, featureSums, projectionSeed, unitVector } from './hashed-features'
import { forEachTerm, normalizeText } from './terms'

/**
 * The engine's name in answers' engine header and in classifiers trained on it: a new projection gets a new
 * name, so classifiers trained on an earlier one are refused rather than fed vectors they never saw.
 */
export const HASHED_EMBEDDINGS_ENGINE = 'builtin-sparse-ngrams'
export const HASHED_EMBEDDINGS_DIMENSIONS = 1024
export const HASHED_MULTIVECTOR_DIMENSIONS = 128

/**
 * With late chunking each chunk's vector is its own vector plus this much of the whole document's (the
 * vector of all chunks' features counted together), renormalised: a chunk keeps what it says itself and
 * leans towards its document's topic, so a chunk that says "it" about a subject named elsewhere is still
 * found by that subject's name.
 */
export const LATE_CHUNKING_CONTEXT_WEIGHT = 0.25

const YIELD_AFTER_MS = 20

export interface HashedEmbeddingsOptions {
  /** Width of the vectors (≥ 8); the served model's dimensions. */
  dimensions?: number
  /** The served model's id: each model gets its own projection. */
  seedName?: string
  /** Width of per-term vectors for `multiVector`; undefined: no multi-vector output. */
  multiVectorDimensions?: number
}

export function createHashedEmbeddings(options: HashedEmbeddingsOptions = {}): EmbeddingEngine {
  const dimensions = options.dimensions ?? HASHED_EMBEDDINGS_DIMENSIONS
  const seedName = options.seedName ?? ''
  const seed = projectionSeed(seedName)
  const model = `${HASHED_EMBEDDINGS_ENGINE}-${dimensions}${seedName ? `/${seedName}` : ''}`
  const table = new FeatureTable()

  const sumsOf = (normalized: string) => {
    table.reset()
    addFeatures(table, normalized)
    return featureSums(table, dimensions, seed)
  }

  const termVectors = (normalized: string, width: number): Float32Array[] => {
    const vectors: Float32Array[] = []
    forEachTerm(normalized, (start, end, cjk) => {
      table.reset()
      addTermFeatures(table, normalized, start, end, cjk)
      vectors.push(unitVector(featureSums(table, width, seed)))
    })
    // A text without terms (":-)") still has its one vector: the whole text's features.
    if (vectors.length === 0) vectors.push(unitVector(sumsOf(normalized).subarray(0, width)))
    return vectors
  }

  return {
    kind: 'builtin',
    model,
    dimensions,
    maxInputTokens: 8192,
    supportsLateChunking: true,
    tasks: { kind: 'adapters', tasks: [] },
    multiVectorDimensions: options.multiVectorDimensions,
    readsImages: false,
    async embed(inputs, embedOptions: EmbedOptions): Promise<Embeddings> {
      const normalized = textsOnly(inputs).map(normalizeText)
      const raw: Float64Array[] = []
      const multiVectors: Float32Array[][] = []
      const width = options.multiVectorDimensions
      if (embedOptions.multiVector && !width) throw new Error('this builtin model gives no multi-vector output')
      let sliceStarted = performance.now()
      for (const text of normalized) {
        raw.push(sumsOf(text))
        if (embedOptions.multiVector) multiVectors.push(termVectors(text, width!))
        // A large batch is a second of work: let other requests in between texts (each text's use of the
        // shared table is synchronous, so interleaved calls cannot mix their features).
        if (performance.now() - sliceStarted > YIELD_AFTER_MS) {
          await new Promise((resolve) => setImmediate(resolve))
          sliceStarted = performance.now()
        }
      }
      if (embedOptions.lateChunking && normalized.length > 0) {
        table.reset()
        for (const chunk of normalized) addFeatures(table, chunk)
        const document = unitVector(featureSums(table, dimensions, seed))
        for (let c = 0; c < raw.length; c++) {
          const chunk = unitVector(raw[c])
          const mixed = new Float64Array(dimensions)
          // Mixed at unit scale, then given back the chunk's own length, so `normalized: false` stays raw.
          const length = Math.hypot(...raw[c])
          for (let i = 0; i < dimensions; i++) mixed[i] = chunk[i] + LATE_CHUNKING_CONTEXT_WEIGHT * document[i]
          const unit = unitVector(mixed)
          raw[c] = Float64Array.from(unit, (value) => value * length)
        }
      }
      const vectors = raw.map((sums) =>
        embedOptions.normalized === false ? Float32Array.from(sums) : unitVector(sums),
      )
      return {
        model,
        vectors,
        taskApplied: false,
        ...(embedOptions.multiVector && { multiVectors }),
      }
    },
  }
}
