import { Trans, useLingui } from '@lingui/react/macro'
import { ArrowRight } from 'lucide-react'
import { models } from '#content/models'
import { papers } from '#content/papers'
import { LocalizedLink } from '~/components/site/localized-link'
import { Button } from '~/components/ui/button'
import { constants } from '#config'
import { useApiBaseUrl } from '../product/use-api-base-url'
import { heroSample } from './hero-sample'

export function Hero() {
  const { t, i18n } = useLingui()
  const sample = heroSample(useApiBaseUrl())
  const stats = [
    { value: i18n.number(constants.freePackTokens), label: t`free tokens with every new key` },
    { value: String(models.length), label: t`open models` },
    { value: String(papers.length), label: t`research papers` },
  ]
  return (
    <div className="relative overflow-hidden border-b">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(60rem_30rem_at_80%_-10%,oklch(0.75_0.12_262/0.25),transparent),radial-gradient(40rem_24rem_at_0%_110%,oklch(0.8_0.12_190/0.2),transparent)]"
      />
      <div className="relative mx-auto grid max-w-6xl grid-cols-1 items-center gap-12 px-4 py-16 sm:py-24 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)]">
        <div>
          <p className="text-sm font-medium text-primary">
            <Trans>Search foundation models and APIs</Trans>
          </p>
          <h1 className="mt-3 text-4xl font-semibold tracking-tight text-balance sm:text-6xl">
            <Trans>Better search starts with better foundations</Trans>
          </h1>
          <p className="mt-5 max-w-xl text-lg text-muted-foreground">
            <Trans>
              Read any web page, embed text and images in more than 80 languages, put the best results first and let an
              agent search until it finds the answer. Open models, one API, billed by the token.
            </Trans>
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Button asChild size="lg">
              <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}">
                <Trans>Get a free API key</Trans>
                <ArrowRight aria-hidden />
              </LocalizedLink>
            </Button>
            <Button asChild size="lg" variant="outline">
              <LocalizedLink to="/{-$locale}/models">
                <Trans>Explore the models</Trans>
              </LocalizedLink>
            </Button>
          </div>
          {/* As many columns as the widest figure allows: three fixed columns split "10.000.000" on a phone. */}
          <dl className="mt-10 grid max-w-lg grid-cols-[repeat(auto-fit,minmax(8rem,1fr))] gap-4">
            {stats.map((stat) => (
              // Value above label, both from the top: a label that wraps must not push its value out of line.
              <div key={stat.label} className="flex flex-col-reverse justify-end gap-1">
                <dt className="text-xs text-muted-foreground">{stat.label}</dt>
                <dd className="text-xl font-semibold tabular-nums sm:text-2xl">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </div>
        <figure className="min-w-0 rounded-xl border bg-card shadow-lg">
          <figcaption className="flex items-center gap-2 border-b px-4 py-2.5 text-xs text-muted-foreground">
            <span aria-hidden className="flex gap-1.5">
              <span className="size-2.5 rounded-full bg-red-400" />
              <span className="size-2.5 rounded-full bg-amber-400" />
              <span className="size-2.5 rounded-full bg-emerald-400" />
            </span>
            <Trans>Rerank search results with one call</Trans>
          </figcaption>
          <pre tabIndex={0} className="overflow-x-auto p-4 text-[13px] leading-relaxed">
            <code>{sample}</code>
          </pre>
        </figure>
      </div>
    </div>
  )
}
