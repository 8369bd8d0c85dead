import { runPaced } from '../../../paced'
import { createBm25Reranker } from '../builtin/bm25'
import { textsOnly, type EmbeddingEngine, type RerankEngine } from '../engines'
import { encoderThread } from './encoder-thread'
import { USE_LITE_DIMENSIONS, useLiteFiles } from './model-files'
import { createPieceTokenizer, type PieceTokenizer } from './tokenizer'

/**
 * Longest input, in metering tokens (cl100k_base). The encoder has no context limit of its own (its
 * positions are computed, not learned), but its attention grows with the square of the length and its one
 * vector is a mean over the whole text: a page is better embedded in passages. Its pieces are shorter
 * than cl100k's tokens (about 1.2 per token for English prose), so up to MAX_PIECES are kept.
 */
export const USE_LITE_MAX_INPUT_TOKENS = 1024
const MAX_PIECES = 2048
/** A batch for the thread: at most this many sequences, and pieces once padded to its longest. */
const BATCH_ROWS = 32
const BATCH_PADDED_PIECES = 8192

/**
 * Share of the encoder's cosine in its reranker's score (BM25 the rest). On the evaluation set 0.3 and 0.5
 * rank English alike (nDCG@10 0.846, 0.850; 0.7: 0.827) and 0.3 loses less in German and French, which the
 * encoder does not read.
 */
export const USE_LITE_RERANK_BLEND = 0.3

export interface UseLiteEngines {
  embeddings: EmbeddingEngine
  reranker: RerankEngine
}

/**
 * The Universal Sentence Encoder Lite (Google, 2018; Apache-2.0): a two-layer transformer over 8,000
 * SentencePiece pieces giving one 512-dimensional unit vector per text, trained for English sentence
 * similarity. It finds paraphrases that share no words, which hashed n-grams cannot; it does not read other
 * languages (BENCHMARKS.md has its scores beside the builtin engine's). It runs on TensorFlow.js's
 * WebAssembly backend on a thread of its own (./encoder-thread.ts); the texts are cut into pieces here, in
 * slices (../../../paced.ts), since a request may carry megabytes of text.
 *
 * Each input is embedded on its own: no late chunking, no task adapters (a `task` is reported as not
 * applied), no per-token vectors. Its reranker is BM25 blended with the encoder's cosine.
 */
export function createUseLiteEngines(): UseLiteEngines {
  const files = useLiteFiles()
  const model = `use-lite-${USE_LITE_DIMENSIONS}/${files.version}`
  let tokenizer: PieceTokenizer | undefined
  const thread = encoderThread(files)

  const embeddings: EmbeddingEngine = {
    kind: 'use-lite',
    model,
    dimensions: USE_LITE_DIMENSIONS,
    maxInputTokens: USE_LITE_MAX_INPUT_TOKENS,
    supportsLateChunking: false,
    tasks: { kind: 'adapters', tasks: [] },
    readsImages: false,
    async embed(inputs, { multiVector }) {
      if (multiVector) throw new Error('the use-lite engine gives no multi-vector output')
      tokenizer ??= createPieceTokenizer(files.vocabulary)
      const sequences = await runPaced(pieces(tokenizer, textsOnly(inputs)))
      const vectors = new Array<Float32Array>(sequences.length)
      for (const batch of batches(sequences)) {
        const computed = await thread.encode(batch.map((i) => sequences[i]))
        batch.forEach((i, row) => (vectors[i] = computed[row]))
      }
      // The encoder's vectors are unit length already: `normalized: false` answers them as they are.
      return { model, vectors, taskApplied: false }
    },
  }

  const blended = createBm25Reranker({ embeddings, blend: USE_LITE_RERANK_BLEND })
  const reranker: RerankEngine = {
    kind: 'use-lite',
    model: `builtin-bm25+${model}`,
    maxInputTokens: USE_LITE_MAX_INPUT_TOKENS,
    readsImages: false,
    rerank: (query, documents, options) => blended.rerank(query, documents, options),
  }
  return { embeddings, reranker }
}

/** Each text's pieces, the first MAX_PIECES of them, a text at a step. */
function* pieces(tokenizer: PieceTokenizer, texts: string[]): Generator<void, number[][], void> {
  const sequences: number[][] = []
  for (const text of texts) {
    const ids = tokenizer.encode(text)
    sequences.push(ids.length > MAX_PIECES ? ids.slice(0, MAX_PIECES) : ids)
    yield
  }
  return sequences
}

/**
 * The sequences' indexes in batches of similar lengths (so little of a batch is padding), in order of
 * length, each within BATCH_ROWS and BATCH_PADDED_PIECES (a longer sequence alone).
 */
function batches(sequences: number[][]): number[][] {
  const order = sequences.map((_, i) => i).sort((a, b) => sequences[a].length - sequences[b].length)
  const out: number[][] = []
  let batch: number[] = []
  for (const i of order) {
    const padded = (batch.length + 1) * sequences[i].length
    if (batch.length > 0 && (batch.length === BATCH_ROWS || padded > BATCH_PADDED_PIECES)) {
      out.push(batch)
      batch = []
    }
    batch.push(i)
  }
  if (batch.length > 0) out.push(batch)
  return out
}
