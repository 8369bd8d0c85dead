import { msg } from '@lingui/core/macro'
import type { Example } from '../parts/example-picker'

export const efforts = ['low', 'medium', 'high'] as const
export type Effort = (typeof efforts)[number]

export interface DeepSearchValues {
  question: string
  effort: Effort
}

export const deepSearchExamples: readonly Example<DeepSearchValues>[] = [
  {
    id: 'reranker',
    label: msg`Long-context reranking`,
    values: { question: 'Which reranker reads up to 64 documents in one context window?', effort: 'low' },
  },
  {
    id: 'reader',
    label: msg`Reading web pages`,
    values: { question: 'How does the reader turn a web page into Markdown, and how is it billed?', effort: 'medium' },
  },
  {
    id: 'agents',
    label: msg`How DeepSearch works`,
    values: { question: 'How does DeepSearch decide when to stop searching and answer?', effort: 'high' },
  },
]
