import { defaultModelIds } from '#content/vocabulary'
import { nonEmptyLines } from '../lib/lines'
import type { EmbeddingsValues } from './embeddings-examples'

export const embeddingsModel = defaultModelIds.embeddings

/** The /v1/embeddings body the form stands for: unset options are left out, as a developer would. */
export function embeddingsRequest(values: EmbeddingsValues) {
  return {
    model: embeddingsModel,
    input: nonEmptyLines(values.input),
    ...(values.task && { task: values.task }),
    ...(values.dimensions && { dimensions: Number(values.dimensions) }),
  }
}

export type EmbeddingsBody = ReturnType<typeof embeddingsRequest>
export type { EmbeddingsAnswer } from '~/contracts/search'
