import type { EmbeddingEngine } from '../../providers/inference/engines'
import { servedModel } from '../../providers/inference/select'

/**
 * Refuses, with a 422 naming the served ones, a `model` this server does not serve for embeddings (bulk jobs
 * check the name they were given after the upload; their engine computes each job with its own model).
 */
export async function checkModel(capability: 'embeddings', model: string, _engine?: EmbeddingEngine): Promise<void> {
  await servedModel(model, capability)
}
