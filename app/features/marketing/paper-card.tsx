import { Trans, useLingui } from '@lingui/react/macro'
import { ExternalLink } from 'lucide-react'
import { getModel } from '#content/models'
import type { Paper } from '#content/schemas'
import { LocalizedLink } from '~/components/site/localized-link'
import { Badge } from '~/components/ui/badge'
import { cn } from '~/lib/utils'
import { ContentDate } from '~/components/marketing/content-date'

/**
 * A research paper. Titles and summaries stay in English (lang="en"), the chrome around them is
 * translated. `compact` clamps the summary for the landing page.
 */
export function PaperCard({
  paper,
  compact = false,
  headingLevel = 3,
}: {
  paper: Paper
  compact?: boolean
  headingLevel?: 3 | 4
}) {
  const { t } = useLingui()
  const Heading = headingLevel === 3 ? 'h3' : 'h4'
  const models = paper.models.map(getModel).filter((m) => m !== undefined)
  return (
    <article className="flex h-full flex-col rounded-xl border bg-card p-5 shadow-xs">
      <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <ContentDate date={paper.date} />
        {paper.conference && <Badge variant="accent">{paper.conference}</Badge>}
      </div>
      <Heading lang="en" className="mt-2 text-base font-semibold leading-snug">
        {paper.title}
      </Heading>
      <p lang="en" className={cn('mt-2 text-sm text-muted-foreground', compact && 'line-clamp-4')}>
        {paper.summary}
      </p>
      <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-2 pt-4">
        <ul className="flex flex-wrap gap-1.5" aria-label={t`Models in this paper`}>
          {models.map((model) => (
            <li key={model.slug}>
              <LocalizedLink
                to="/{-$locale}/models/$slug"
                params={{ slug: model.slug }}
                className="inline-flex rounded-full border px-2 py-0.5 text-xs font-medium hover:bg-accent"
              >
                {model.name}
              </LocalizedLink>
            </li>
          ))}
        </ul>
        <a
          href={paper.link}
          rel="noopener"
          target="_blank"
          className="ml-auto inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          <Trans>arXiv</Trans>
          <span className="sr-only">: {paper.title}</span>
          <ExternalLink aria-hidden className="size-3.5" />
        </a>
      </div>
    </article>
  )
}
