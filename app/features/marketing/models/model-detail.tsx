import { useLingui as useLinguiRuntime } from '@lingui/react'
import { Trans, useLingui } from '@lingui/react/macro'
import { ExternalLink } from 'lucide-react'
import { papersForModel } from '#content/papers'
import { products } from '#content/products'
import type { Model } from '#content/schemas'
import { LocalizedLink } from '~/components/site/localized-link'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import type { NewsSummary } from '~/lib/news-summary'
import { ContentDate } from '~/components/marketing/content-date'
import { ModelBanner } from '../model-banner'
import { ModelStats } from '../model-stats'
import { useModelTagLabels } from '~/lib/model-tags'
import { ServedByNote } from './served-by-note'

const listTitle = 'text-sm font-semibold'
const linkClass = 'text-sm text-primary underline-offset-4 hover:underline'

/** The focused model at the top of /models/{slug}, carrying the page's h1: everything we know about it in one panel. */
export function ModelDetail({ model, news }: { model: Model; news: NewsSummary[] }) {
  const { i18n } = useLinguiRuntime()
  const { t } = useLingui()
  const tagLabels = useModelTagLabels()
  const modelPapers = papersForModel(model.slug)
  const posts = news.filter((post) => post.models.includes(model.slug))
  const usedBy = products.filter((p) => p.modelSlugs.includes(model.slug))
  return (
    <section aria-labelledby="model-title" className="mx-auto max-w-6xl px-4 pt-10">
      <div className="grid overflow-hidden rounded-2xl border bg-card shadow-sm lg:grid-cols-[2fr_3fr]">
        <ModelBanner
          model={model}
          priority
          className="w-full max-lg:aspect-video lg:h-full"
          titleClassName="text-3xl leading-tight sm:text-4xl lg:px-8 lg:pb-8"
        />
        <div className="flex flex-col gap-5 p-6 sm:p-8">
          <div>
            <LocalizedLink
              to="/{-$locale}/models"
              className="text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              <Trans>Models</Trans>
            </LocalizedLink>
            <h1 id="model-title" className="mt-1 text-3xl font-semibold tracking-tight sm:text-4xl">
              {model.name}
            </h1>
            <ul className="mt-3 flex flex-wrap gap-1.5" aria-label={t`Tags`}>
              {model.tags.map((tag) => (
                <li key={tag}>
                  <Badge>{tagLabels[tag]}</Badge>
                </li>
              ))}
            </ul>
          </div>
          <p className="text-lg text-muted-foreground">{i18n._(model.description)}</p>
          <ModelStats model={model} className="grid grid-cols-2 gap-4 border-y py-4 sm:grid-cols-4" />
          <ServedByNote model={model} />
          {model.benchmark && (
            <p className="text-sm">
              <Trans>Benchmark:</Trans>{' '}
              <strong className="text-2xl font-semibold tabular-nums">{i18n.number(model.benchmark.score)}</strong>{' '}
              {model.benchmark.metric} <Trans>on {model.benchmark.name}</Trans>
            </p>
          )}
          <div className="grid gap-5 sm:grid-cols-2">
            {modelPapers.length > 0 && (
              <div>
                <h2 className={listTitle}>
                  <Trans>Papers</Trans>
                </h2>
                <ul className="mt-2 space-y-2">
                  {modelPapers.map((paper) => (
                    <li key={paper.id}>
                      <a href={paper.link} rel="noopener" target="_blank" lang="en" className={linkClass}>
                        {paper.title}
                      </a>
                      <span className="block text-xs text-muted-foreground">
                        <ContentDate date={paper.date} />
                        {paper.conference && ` · ${paper.conference}`}
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <div className="space-y-5">
              {posts.length > 0 && (
                <div>
                  <h2 className={listTitle}>
                    <Trans>In the news</Trans>
                  </h2>
                  <ul className="mt-2 space-y-2">
                    {posts.map((post) => (
                      <li key={post.slug}>
                        <LocalizedLink
                          to="/{-$locale}/news/$slug"
                          params={{ slug: post.slug }}
                          lang="en"
                          className={linkClass}
                        >
                          {post.title}
                        </LocalizedLink>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              {usedBy.length > 0 && (
                <div>
                  <h2 className={listTitle}>
                    <Trans>Available in</Trans>
                  </h2>
                  <ul className="mt-2 flex flex-wrap gap-x-3 gap-y-1">
                    {usedBy.map((p) => (
                      <li key={p.key}>
                        <LocalizedLink to={p.homepage} className={linkClass}>
                          {i18n._(p.label)}
                        </LocalizedLink>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </div>
          </div>
          <div className="mt-auto flex flex-wrap items-center gap-3">
            <Button asChild variant="outline">
              <a href={model.huggingFaceUrl} rel="noopener" target="_blank">
                <Trans>View on Hugging Face</Trans>
                <ExternalLink aria-hidden />
              </a>
            </Button>
            <span className="text-xs text-muted-foreground">
              <Trans>License: {model.license}</Trans>
            </span>
          </div>
        </div>
      </div>
    </section>
  )
}
