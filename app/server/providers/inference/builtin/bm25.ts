/**
 * The builtin reranker: Okapi BM25 (k1 = 1.2, b = 0.75) with the request's documents as the corpus, terms
 * from ./terms.ts (so CJK text is matched by character bigrams), optionally blended with the cosine of an
 * embedding engine's vectors. Scores are comparable across requests: raw BM25 is mapped to [0, 1] by a fixed
 * monotonic function, never by the request's own minimum and maximum (which would give the best of a set
 * of irrelevant documents a 1).
 */
import { textsOnly, type EmbeddingEngine, type Relevance, type RerankEngine } from '../engines'
import { termsOf } from './terms'

const K1 = 1.2
const B = 0.75

/**
 * Raw score s maps to s / (s + 2). A query term found once in a document of average length contributes
 * about its IDF (1–4 for a term in a fraction of the documents), so one distinctive matching term gives
 * about 0.4–0.6 and several give 0.7 and more, while no match stays 0.
 */
export const BM25_HALF_SCORE = 2

/** Weight of the embedding cosine in the blend when an engine is given and no blend is: the rest is BM25. */
export const DEFAULT_COSINE_BLEND = 0.3

export const BM25_MODEL = 'builtin-bm25'

/**
 * IDF as Lucene smooths it, ln(1 + (N − df + 0.5) / (df + 0.5)): always positive, so a term in every
 * document (or in the only document of a one-document request) still counts a little.
 */
function idf(documents: number, documentFrequency: number): number {
  return Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5))
}

/** Raw BM25 of each document for the query's distinct terms. */
export function bm25Scores(query: string, documents: string[]): number[] {
  const queryTerms = new Set(termsOf(query))
  const frequencies: Map<string, number>[] = []
  const lengths: number[] = []
  const documentFrequencies = new Map<string, number>()
  for (const document of documents) {
    const counts = new Map<string, number>()
    const terms = termsOf(document)
    // Only the query's terms are scored; the others count for the document's length alone.
    for (const term of terms) if (queryTerms.has(term)) counts.set(term, (counts.get(term) ?? 0) + 1)
    for (const term of counts.keys()) documentFrequencies.set(term, (documentFrequencies.get(term) ?? 0) + 1)
    frequencies.push(counts)
    lengths.push(terms.length)
  }
  const averageLength = lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, documents.length) || 1
  return frequencies.map((counts, i) => {
    let score = 0
    const lengthNorm = K1 * (1 - B + (B * lengths[i]) / averageLength)
    for (const [term, tf] of counts) {
      score += (idf(documents.length, documentFrequencies.get(term)!) * (tf * (K1 + 1))) / (tf + lengthNorm)
    }
    return score
  })
}

/** Raw BM25 (≥ 0) to [0, 1), monotonic and the same in every request. */
export function bm25Relevance(score: number): number {
  return score / (score + BM25_HALF_SCORE)
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i]
  return dot
}

export interface Bm25Options {
  /** Blends the cosine of this engine's query and document vectors into the score. */
  embeddings?: EmbeddingEngine
  /** The cosine's weight in [0, 1] (default DEFAULT_COSINE_BLEND); needs `embeddings`. */
  blend?: number
}

export function createBm25Reranker(options: Bm25Options = {}): RerankEngine {
  const { embeddings } = options
  if (options.blend !== undefined && !embeddings) throw new Error('a BM25 blend needs an embedding engine')
  const blend = embeddings ? (options.blend ?? DEFAULT_COSINE_BLEND) : 0
  if (!(blend >= 0 && blend <= 1)) throw new Error(`the BM25 blend must be between 0 and 1, not ${options.blend}`)

  return {
    kind: 'builtin',
    // The reranker itself has no limit; this matches the builtin embeddings it blends with.
    maxInputTokens: 8192,
    readsImages: false,
    async rerank(query, documentInputs): Promise<Relevance> {
      const documents = textsOnly(documentInputs)
      const lexical = bm25Scores(query, documents).map(bm25Relevance)
      if (!embeddings || documents.length === 0) return { model: BM25_MODEL, scores: lexical }

      const embed = (texts: string[], task: 'retrieval.query' | 'retrieval.passage') =>
        embeddings.embed(texts, { task, lateChunking: false })
      const [queryVector, documentVectors] = await Promise.all([
        embed([query], 'retrieval.query'),
        embed(documents, 'retrieval.passage'),
      ])
      const model = documentVectors.model
      const scores = lexical.map((score, i) => {
        // A negative cosine is no evidence of relevance, just as a zero one: both add nothing.
        const semantic = Math.max(0, Math.min(1, cosine(queryVector.vectors[0], documentVectors.vectors[i])))
        return (1 - blend) * score + blend * semantic
      })
      return { model: `${BM25_MODEL}+${model}`, scores }
    },
  }
}
