import { nonEmptyLines } from '../lib/lines'
import type { RerankValues } from './rerank-examples'

export const rerankModel = 'reranker-v3'

/** The /v1/rerank body the form stands for; the documents come back with their scores. */
export function rerankRequest(values: RerankValues) {
  return {
    model: rerankModel,
    query: values.query.trim(),
    documents: nonEmptyLines(values.documents),
    ...(values.topN && { top_n: Number(values.topN) }),
    return_documents: true,
  }
}

export type RerankBody = ReturnType<typeof rerankRequest>
export type { RerankAnswer } from '~/contracts/search'
