import { Trans, useLingui } from '@lingui/react/macro'
import { ExternalLink } from 'lucide-react'
import { marketplaceEntries } from '#content/marketplace'
import type { MarketplaceEntry } from '#content/schemas'
import { Badge } from '~/components/ui/badge'
import { cn } from '~/lib/utils'

function useProductLabels(): Record<MarketplaceEntry['products'][number], string> {
  const { t } = useLingui()
  return { embedding: t`Embeddings`, reranker: t`Reranker` }
}

/** Cloud marketplace listings; a disabled listing is shown greyed out and is not a link. */
export function MarketplaceListings() {
  const labels = useProductLabels()
  return (
    <ul className="grid gap-4 sm:grid-cols-3">
      {marketplaceEntries.map((entry) => {
        const body = (
          <>
            <img
              src={entry.icon}
              alt=""
              width={48}
              height={48}
              loading="lazy"
              className={cn('size-12 rounded-lg', entry.disabled && 'opacity-50 grayscale')}
            />
            <span className="flex flex-1 flex-col gap-1.5">
              <span className={cn('font-medium', entry.disabled && 'text-muted-foreground')}>{entry.label}</span>
              <span className="flex flex-wrap gap-1.5">
                {entry.products.map((p) => (
                  <Badge key={p} variant="outline">
                    {labels[p]}
                  </Badge>
                ))}
              </span>
              {entry.disabled && (
                <span className="text-xs text-muted-foreground">
                  <Trans>Coming soon</Trans>
                </span>
              )}
            </span>
          </>
        )
        const box = 'flex h-full items-start gap-4 rounded-xl border p-5'
        return (
          <li key={entry.id}>
            {entry.disabled ? (
              <div className={cn(box, 'border-dashed bg-muted/40')}>{body}</div>
            ) : (
              <a
                href={entry.link}
                rel="noopener"
                target="_blank"
                className={cn(box, 'bg-card shadow-xs transition-shadow hover:shadow-md')}
              >
                {body}
                <ExternalLink aria-hidden className="size-4 text-muted-foreground" />
              </a>
            )}
          </li>
        )
      })}
    </ul>
  )
}
