import { useLingui } from '@lingui/react/macro'
import { models } from '#content/models'
import { modelTags, type ModelTag } from '#content/vocabulary'
import { LocalizedLink } from '~/components/site/localized-link'
import { cn } from '~/lib/utils'
import { useModelTagLabels } from '~/lib/model-tags'

/** Filters are links (not buttons), so every filtered view has its own URL and is rendered on the server. */
export function TagFilter({ active, slug }: { active?: ModelTag; slug?: string }) {
  const { t } = useLingui()
  const labels = useModelTagLabels()
  // The page the filter is on: the catalogue, or the catalogue with one model focused.
  const page = slug
    ? ({ to: '/{-$locale}/models/$slug', params: { slug } } as const)
    : ({ to: '/{-$locale}/models' } as const)
  const options: Array<{ tag?: ModelTag; label: string; count: number }> = [
    { label: t`All`, count: models.length },
    ...modelTags.map((tag) => ({ tag, label: labels[tag], count: models.filter((m) => m.tags.includes(tag)).length })),
  ]
  return (
    <nav aria-label={t`Filter models by tag`}>
      <ul className="flex flex-wrap gap-2">
        {options.map((option) => {
          const selected = option.tag === active
          return (
            <li key={option.tag ?? 'all'}>
              {/* exact: the "All" link must not count as active while a tag is selected; Link sets aria-current. */}
              <LocalizedLink
                {...page}
                search={option.tag ? { tag: option.tag } : {}}
                activeOptions={{ exact: true }}
                className={cn(
                  'inline-flex h-8 items-center gap-1.5 rounded-full border px-3 text-sm font-medium transition-colors',
                  selected ? 'border-primary bg-primary text-primary-foreground' : 'bg-background hover:bg-accent',
                )}
              >
                {option.label}
                <span
                  className={cn('text-xs tabular-nums', selected ? 'text-primary-foreground' : 'text-muted-foreground')}
                >
                  {option.count}
                </span>
              </LocalizedLink>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
