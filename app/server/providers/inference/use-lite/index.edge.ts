import { NeedsNode } from '../../../domain/refusals'
import type * as UseLite from './index'

/**
 * The use-lite engine runs TensorFlow.js's WebAssembly on a worker thread and reads its 28 MB of weights
 * from its package folder: an edge build routes the inference APIs to EMBEDDINGS_UPSTREAM when it is chosen
 * (node-backend.edge.ts); what still reaches here (a dashboard server function) is refused.
 */
export const createUseLiteEngines: typeof UseLite.createUseLiteEngines = () => {
  throw new NeedsNode('embeddings')
}
