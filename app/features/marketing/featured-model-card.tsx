import { useLingui as useLinguiRuntime } from '@lingui/react'
import type { Model } from '#content/schemas'
import { LocalizedLink } from '~/components/site/localized-link'
import { Badge } from '~/components/ui/badge'
import { ModelStats } from './model-stats'
import { useModelTagLabels } from '~/lib/model-tags'

/** A compact model card for the landing page; the whole card links to the model. */
export function FeaturedModelCard({ model }: { model: Model }) {
  const { i18n } = useLinguiRuntime()
  const tagLabels = useModelTagLabels()
  return (
    <div className="relative flex h-full flex-col gap-3 rounded-xl border bg-card p-5 shadow-xs transition-shadow focus-within:ring-[3px] focus-within:ring-ring/50 hover:shadow-md">
      <div className="flex items-start justify-between gap-3">
        <h3 className="font-semibold">
          <LocalizedLink
            to="/{-$locale}/models/$slug"
            params={{ slug: model.slug }}
            className="outline-none after:absolute after:inset-0"
          >
            {model.name}
          </LocalizedLink>
        </h3>
        <div className="flex flex-wrap justify-end gap-1">
          {model.tags.slice(0, 2).map((tag) => (
            <Badge key={tag}>{tagLabels[tag]}</Badge>
          ))}
        </div>
      </div>
      <p className="line-clamp-2 text-sm text-muted-foreground">{i18n._(model.description)}</p>
      <ModelStats
        model={model}
        fields={['parameters', 'context', 'dimensions']}
        className="mt-auto grid grid-cols-3 gap-2 border-t pt-3"
      />
    </div>
  )
}
