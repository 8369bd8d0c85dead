import { Trans, useLingui } from '@lingui/react/macro'
import type { ProductKey } from '#content/schemas'
import { rateLimitTiers, type RateLimitedApi } from '#config'

const apiOf: Partial<Record<ProductKey, RateLimitedApi>> = {
  reader: 'reader',
  embeddings: 'embeddings',
  reranker: 'rerank',
  deepsearch: 'deepsearch',
  classifier: 'classify',
  segmenter: 'segment',
  'fine-tuning': 'embeddings',
}

/**
 * Requests per minute by key tier, from the same table the API enforces. An API that refuses calls without a
 * key has no row for them (a number column holds only numbers); a note under the table says so instead.
 */
export function RateLimits({ product }: { product: ProductKey }) {
  const { t, i18n } = useLingui()
  const api = apiOf[product]
  if (!api) return null
  const tiers = rateLimitTiers[api]
  const rows = [
    { tier: t`Without a key`, limit: tiers.anonymous },
    { tier: t`Free key`, limit: tiers.free },
    { tier: t`Paid key`, limit: tiers.paid },
    { tier: t`Premium key`, limit: tiers.premium },
  ].flatMap(({ tier, limit }) => (limit === null ? [] : [{ tier, limit }]))
  return (
    <div>
      <table className="w-full text-sm">
        <caption className="mb-2 text-left font-medium">
          <Trans>Rate limits</Trans>
        </caption>
        <thead>
          <tr className="border-b text-left text-xs text-muted-foreground">
            <th scope="col" className="py-2 font-medium">
              <Trans>Key</Trans>
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              <Trans>Requests per minute</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.tier} className="border-b last:border-0">
              <th scope="row" className="py-2 text-left font-normal">
                {row.tier}
              </th>
              <td className="py-2 text-right tabular-nums">{i18n.number(row.limit)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {tiers.anonymous === null && (
        <p className="mt-2 text-xs text-muted-foreground">
          <Trans>This API answers only requests with a key.</Trans>
        </p>
      )}
    </div>
  )
}
