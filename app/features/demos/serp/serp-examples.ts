import { msg } from '@lingui/core/macro'
import type { Example } from '../parts/example-picker'

export interface SerpValues {
  query: string
}

export const serpExamples: readonly Example<SerpValues>[] = [
  { id: 'reranker', label: msg`Listwise reranker`, values: { query: 'listwise reranker 64 documents context window' } },
  { id: 'code', label: msg`Code search`, values: { query: 'embedding models for searching code' } },
  {
    id: 'reader',
    label: msg`Web page to Markdown`,
    values: { query: 'turn a web page into markdown for a language model' },
  },
]
