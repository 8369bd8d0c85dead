import { Trans } from '@lingui/react/macro'
import { Info } from 'lucide-react'
import type { Model } from '#content/schemas'

/**
 * Honesty about this deployment: the API accepts this model's name, but what computes the answer is the
 * server's configured engine (by default an offline algorithm, not these weights), and the answer names it.
 */
export function ServedByNote({ model }: { model: Model }) {
  const embeds = model.tags.includes('embeddings')
  const reranks = model.tags.includes('reranker')
  if (!embeds && !reranks) return null
  return (
    <p className="flex gap-2 rounded-lg border bg-muted/40 p-3 text-sm text-muted-foreground">
      <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>
        {embeds ? (
          <Trans>
            On this server, requests for this model are answered by its configured engine, and the answer's model field
            names what computed them. Unless configured otherwise that is the built-in engine: hashed word and character
            n-grams (builtin-hashed-ngrams-1024), not these weights.
          </Trans>
        ) : (
          <Trans>
            On this server, requests for this model are answered by its configured engine, and the answer's model field
            names what computed them. Unless configured otherwise that is the built-in engine: BM25 blended with hashed
            n-gram embeddings (builtin-bm25+hashed-ngrams), not these weights.
          </Trans>
        )}
      </span>
    </p>
  )
}
