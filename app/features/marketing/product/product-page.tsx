import { useLingui as useLinguiRuntime } from '@lingui/react'
import { Trans } from '@lingui/react/macro'
import { Users } from 'lucide-react'
import type * as React from 'react'
import { getModel } from '#content/models'
import { getProduct } from '#content/products'
import type { ProductKey } from '#content/schemas'
import { LocalizedLink } from '~/components/site/localized-link'
import { Button } from '~/components/ui/button'
import { useApiBaseUrl } from './use-api-base-url'
import { ModelCard } from '../model-card'
import { PageHeader, Section } from '~/components/marketing/section'
import { spectrumGradient } from '../spectrum'
import { CodeSamples } from './code-samples'
import { highlights } from './highlights'
import { PricingPanel } from './pricing-panel'
import { endpointOf, samplesFor } from './samples'

/**
 * One product page: what it does, who it is for, its live demo, code samples
 * against the configured API base URL, its models and pricing. `children` adds product-specific
 * sections after the code samples.
 */
export function ProductPage({
  productKey,
  apiSectionId = 'api',
  Demo,
  children,
}: {
  productKey: ProductKey
  apiSectionId?: string
  /** The live demo, handed in by the route: the demos are a feature of their own (features/demos). */
  Demo: React.ComponentType<{ product: ProductKey; apiBaseUrl: string }>
  children?: React.ReactNode
}) {
  const { i18n } = useLinguiRuntime()
  const product = getProduct(productKey)!
  const label = i18n._(product.label)
  const models = product.modelSlugs.map(getModel).filter((m) => m !== undefined)
  const apiBase = useApiBaseUrl()
  const samples = samplesFor(productKey, apiBase)
  const endpoint = `${endpointOf(productKey)}`
  return (
    <>
      <PageHeader eyebrow={label} title={i18n._(product.caption)} lead={i18n._(product.description)}>
        <div
          aria-hidden
          className="mt-8 h-1.5 w-40 rounded-full"
          style={{ backgroundImage: spectrumGradient(product.spectrum, 90) }}
        />
        <div className="mt-8 flex flex-wrap gap-3">
          <Button asChild size="lg">
            <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}">
              <Trans>Get a free API key</Trans>
            </LocalizedLink>
          </Button>
          {/* includeHash: the link is to a section, not to this page itself. */}
          <Button asChild size="lg" variant="outline">
            <LocalizedLink to={product.homepage} hash={apiSectionId} activeOptions={{ includeHash: true }}>
              <Trans>See the code</Trans>
            </LocalizedLink>
          </Button>
        </div>
      </PageHeader>
      <Section id="overview" title={<Trans>What it does</Trans>}>
        <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
          <ul className="grid gap-4 sm:grid-cols-3 lg:grid-cols-3">
            {highlights[productKey].map((item) => (
              <li key={item.title.id} className="rounded-xl border bg-card p-5 shadow-xs">
                <h3 className="font-semibold">{i18n._(item.title)}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{i18n._(item.body)}</p>
              </li>
            ))}
          </ul>
          <aside aria-labelledby="audience-title" className="rounded-xl bg-accent p-5 text-accent-foreground">
            <h3 id="audience-title" className="flex items-center gap-2 font-semibold">
              <Users aria-hidden className="size-4" />
              <Trans>Who it is for</Trans>
            </h3>
            <p className="mt-2 text-sm">{i18n._(product.audience)}</p>
          </aside>
        </div>
      </Section>
      <Section
        id="demo"
        className="pt-0 sm:pt-0"
        title={<Trans>Try it</Trans>}
        intro={
          productKey === 'fine-tuning' ? (
            <Trans>
              A fine-tuned model is served through the same API as its base model. Try the base embedding model here.
            </Trans>
          ) : undefined
        }
      >
        <Demo product={productKey} apiBaseUrl={apiBase} />
      </Section>
      <Section
        id={apiSectionId}
        className="bg-muted/40"
        title={<Trans>Call the API</Trans>}
        intro={
          <Trans>
            Authenticate with your API key as a bearer token. Endpoint:{' '}
            <code className="rounded bg-muted px-1 py-0.5 text-foreground">{endpoint}</code> on {apiBase}
          </Trans>
        }
      >
        <CodeSamples samples={samples} />
      </Section>
      {children}
      {models.length > 0 && (
        <Section
          id="models"
          title={<Trans>Models</Trans>}
          action={
            <LocalizedLink
              to="/{-$locale}/models"
              className="text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              <Trans>All models</Trans>
            </LocalizedLink>
          }
        >
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {models.map((model) => (
              <li key={model.slug}>
                <ModelCard model={model} showPapers />
              </li>
            ))}
          </ul>
        </Section>
      )}
      <Section id="pricing" className="bg-muted/40" title={<Trans>Pricing</Trans>}>
        <PricingPanel product={product} />
      </Section>
    </>
  )
}
