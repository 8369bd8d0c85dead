import { useLingui } from '@lingui/react/macro'
import type { ModelTag } from '#content/schemas'

export function useModelTagLabels(): Record<ModelTag, string> {
  const { t } = useLingui()
  return {
    embeddings: t`Embeddings`,
    reranker: t`Reranker`,
    reader: t`Reader`,
    multimodal: t`Multimodal`,
    multilingual: t`Multilingual`,
    code: t`Code`,
    classifier: t`Classifier`,
    'late-interaction': t`Late interaction`,
  }
}
