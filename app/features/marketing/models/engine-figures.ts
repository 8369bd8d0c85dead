/**
 * What the two local engines measure on this site's evaluation set (tests/fixtures/eval/), as
 * tests/bench/eval.perf.ts records them (`npm run bench -- eval`; BENCHMARKS.md has every figure): retrieval
 * nDCG@10 of the embeddings and of the reranker per language, English paraphrase accuracy, and texts embedded a
 * second on one core of the benchmark machine (2 shared cores). The bench fails when the quality figures here
 * are not the ones it measured, so a model page never shows another engine's scores.
 */
export const engineFigures = {
  builtin: {
    embeddings: { en: 0.758, de: 0.27, fr: 0.325 },
    reranker: { en: 0.798, de: 0.376, fr: 0.424 },
    paraphrase: 0.625,
    textsPerSecond: 25_430,
  },
  'use-lite': {
    embeddings: { en: 0.642, de: 0.08, fr: 0.134 },
    reranker: { en: 0.846, de: 0.34, fr: 0.387 },
    paraphrase: 0.95,
    textsPerSecond: 20,
  },
} as const

export type MeasuredEngine = keyof typeof engineFigures

export const isMeasuredEngine = (engine: string | null | undefined): engine is MeasuredEngine =>
  engine === 'builtin' || engine === 'use-lite'
