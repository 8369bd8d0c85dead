import { useLingui as useLinguiRuntime } from '@lingui/react'
import { Trans, useLingui } from '@lingui/react/macro'
import { papers } from '#content/papers'
import type { Model } from '#content/schemas'
import { LocalizedLink } from '~/components/site/localized-link'
import { Badge } from '~/components/ui/badge'
import { cn } from '~/lib/utils'
import { ModelBanner } from './model-banner'
import { ModelStats } from './model-stats'
import { useModelTagLabels } from '~/lib/model-tags'

/** A model in a grid: name linking to its detail view, tags, key figures and, optionally, its papers. */
export function ModelCard({
  model,
  showPapers = false,
  current = false,
  eager = false,
}: {
  model: Model
  showPapers?: boolean
  current?: boolean
  /** In the first row of a grid, above the fold: loaded with the page, not when layout finds it in view. */
  eager?: boolean
}) {
  const { i18n } = useLinguiRuntime()
  const { t } = useLingui()
  const tagLabels = useModelTagLabels()
  const linked = showPapers ? papers.filter((p) => model.paperIds.includes(p.id)) : []
  return (
    <article
      className={cn(
        'flex h-full flex-col overflow-hidden rounded-xl border bg-card shadow-xs',
        current && 'ring-2 ring-primary',
      )}
    >
      <ModelBanner
        model={model}
        eager={eager}
        className="aspect-[16/6] w-full"
        titleClassName="text-xl leading-tight"
      />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <h3 className="text-lg font-semibold">
          <LocalizedLink
            to="/{-$locale}/models/$slug"
            params={{ slug: model.slug }}
            aria-current={current ? 'page' : undefined}
            className="hover:underline underline-offset-4"
          >
            {model.name}
          </LocalizedLink>
        </h3>
        <ul className="flex flex-wrap gap-1.5" aria-label={t`Tags`}>
          {model.tags.map((tag) => (
            <li key={tag}>
              <Badge>{tagLabels[tag]}</Badge>
            </li>
          ))}
        </ul>
        <p className="text-sm text-muted-foreground">{i18n._(model.description)}</p>
        <ModelStats model={model} className="mt-auto grid grid-cols-2 gap-3 border-t pt-3" />
        {linked.length > 0 && (
          <div className="border-t pt-3">
            <p className="text-xs text-muted-foreground">
              <Trans>Papers</Trans>
            </p>
            <ul className="mt-1 space-y-1">
              {linked.map((paper) => (
                <li key={paper.id} className="text-sm">
                  <a
                    href={paper.link}
                    rel="noopener"
                    target="_blank"
                    className="text-primary underline-offset-4 hover:underline"
                  >
                    {paper.title}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </article>
  )
}
