import { NeedsNode } from '../../../domain/refusals'
import type * as Onnx from './index'

/**
 * ONNX Runtime is native code: an edge build routes the inference APIs to EMBEDDINGS_UPSTREAM when the
 * onnx engine is chosen (node-backend.edge.ts); what still reaches here (a dashboard server function) is refused.
 */
export const createOnnxEngines: typeof Onnx.createOnnxEngines = () => {
  throw new NeedsNode('embeddings')
}
