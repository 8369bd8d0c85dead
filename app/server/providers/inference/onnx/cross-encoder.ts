import type { ModelFiles } from './model-files'

/** Query–document pairs per session run. */
const pairsPerRun = 16

export interface LoadedCrossEncoder {
  /** One relevance in [0, 1] per document: the sigmoid of the head's first logit over the pair read together. */
  score(query: string, documents: string[]): Promise<number[]>
}

/**
 * A cross-encoder reranker (transformers.js `AutoModelForSequenceClassification` on onnxruntime-node): the
 * tokenizer joins query and document with its pair template (`[CLS] q [SEP] d [SEP]`, `<s> q </s></s> d </s>`),
 * cut to the model's context from the document's end, and the head's logit is the pair's relevance.
 */
export async function loadCrossEncoder(files: ModelFiles, modelsDir: string): Promise<LoadedCrossEncoder> {
  const { AutoModelForSequenceClassification, AutoTokenizer, env } = await import('@huggingface/transformers')
  env.allowRemoteModels = false
  env.allowLocalModels = true
  env.useFSCache = false
  env.localModelPath = modelsDir
  const local = { local_files_only: true }
  const tokenizer = await AutoTokenizer.from_pretrained(files.dir, local)
  const model = await AutoModelForSequenceClassification.from_pretrained(files.dir, {
    ...local,
    dtype: 'fp32',
    device: 'cpu',
  })
  return {
    async score(query, documents) {
      const scores: number[] = []
      for (let from = 0; from < documents.length; from += pairsPerRun) {
        const batch = documents.slice(from, from + pairsPerRun)
        const inputs = tokenizer(
          batch.map(() => query),
          { text_pair: batch, padding: true, truncation: true, max_length: files.contextTokens },
        )
        const { logits } = await model(inputs)
        const labels = logits.dims[1] ?? 1
        const data = logits.data as Float32Array
        for (let row = 0; row < batch.length; row++) {
          const logit = data[row * labels]
          if (!Number.isFinite(logit))
            throw new Error(`onnx engine: ${files.dir} scored a pair with a non-finite logit`)
          scores.push(1 / (1 + Math.exp(-logit)))
        }
      }
      return scores
    },
  }
}
