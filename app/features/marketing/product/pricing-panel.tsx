import { useLingui as useLinguiRuntime } from '@lingui/react'
import { Trans, useLingui } from '@lingui/react/macro'
import type { Product } from '#content/schemas'
import { LocalizedLink } from '~/components/site/localized-link'
import { Button } from '~/components/ui/button'
import { constants } from '#config'
import { BatchPrice } from './batch-price'
import { RateLimits } from './rate-limits'

/** Pricing in tokens: how the product is billed, the free pack, and the limits per key tier. */
export function PricingPanel({ product }: { product: Product }) {
  const { i18n } = useLinguiRuntime()
  const { t } = useLingui()
  const tokens = i18n.number(constants.freePackTokens)
  const enterprise = product.key === 'fine-tuning'
  return (
    <div className="grid gap-6 rounded-xl border bg-card p-6 shadow-xs md:grid-cols-2">
      <div className="flex flex-col gap-4">
        <p className="text-lg">{i18n._(product.pricing)}</p>
        {!enterprise && (
          <p className="text-sm text-muted-foreground">
            <Trans>
              Every new API key starts with {tokens} free tokens. After that, buy token packs in the dashboard; one key
              and one balance pay for every product.
            </Trans>
          </p>
        )}
        <BatchPrice product={product.key} />
        <div className="mt-auto flex flex-wrap gap-3">
          {enterprise ? (
            <Button asChild>
              <LocalizedLink to="/{-$locale}/contact-sales">{t`Contact sales`}</LocalizedLink>
            </Button>
          ) : (
            <>
              <Button asChild>
                <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}">{t`Get a free API key`}</LocalizedLink>
              </Button>
              <Button asChild variant="outline">
                <LocalizedLink
                  to="/{-$locale}/api-dashboard/{-$tab}"
                  params={{ tab: 'billing' }}
                >{t`Buy tokens`}</LocalizedLink>
              </Button>
            </>
          )}
        </div>
      </div>
      <RateLimits product={product.key} />
    </div>
  )
}
