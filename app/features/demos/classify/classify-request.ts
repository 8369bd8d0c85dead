import { defaultModelIds } from '#content/vocabulary'
import { nonEmptyLines } from '../lib/lines'
import type { ClassifyValues } from './classify-examples'

export const classifyModel = defaultModelIds.classify

/** The zero-shot /v1/classify body the form stands for. */
export function classifyRequest(values: ClassifyValues) {
  return { model: classifyModel, input: nonEmptyLines(values.input), labels: nonEmptyLines(values.labels) }
}

export type ClassifyBody = ReturnType<typeof classifyRequest>
export type { ClassifyAnswer } from '~/contracts/search'
