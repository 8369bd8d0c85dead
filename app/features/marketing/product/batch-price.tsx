import { Trans, useLingui } from '@lingui/react/macro'
import type { ProductKey } from '#content/schemas'
import { batchLimits } from '~/contracts/batches'
import { LocalizedLink } from '~/components/site/localized-link'

/** The products whose requests OpenAI's Batch API (/v1/batches) runs, at its discount (`batchLimits.priceShare`). */
const batchProducts: ReadonlySet<ProductKey> = new Set(['embeddings', 'reranker', 'classifier'])

/** The Batch API's price, on the pricing panel of each product a batch can run. */
export function BatchPrice({ product }: { product: ProductKey }) {
  const { i18n } = useLingui()
  if (!batchProducts.has(product)) return null
  const share = i18n.number(batchLimits.priceShare, { style: 'percent' })
  const hours = i18n.number(batchLimits.completionWindowHours)
  return (
    <p className="text-sm text-muted-foreground">
      <Trans>
        Sent through the{' '}
        <LocalizedLink
          to="/{-$locale}/docs/$slug"
          params={{ slug: 'batches' }}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          Batch API
        </LocalizedLink>
        , the same requests cost {share} of their tokens (OpenAI’s batch discount): upload a file of requests, and every
        answer is ready within {hours} hours.
      </Trans>
    </p>
  )
}
