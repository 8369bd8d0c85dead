import { Trans } from '@lingui/react/macro'
import type * as React from 'react'
import type { Model } from '#content/schemas'
import { ContentDate } from '~/components/marketing/content-date'
import { useFormatTokens } from './format'

type Field = 'parameters' | 'context' | 'dimensions' | 'released'
const allFields: Field[] = ['parameters', 'context', 'dimensions', 'released']

/** A model's key figures as a definition list; fields the model lacks (dimensions of a reranker) are left out. */
export function ModelStats({
  model,
  fields = allFields,
  className,
}: {
  model: Model
  fields?: Field[]
  className?: string
}) {
  const tokens = useFormatTokens()
  const rows: Record<Field, [React.ReactNode, React.ReactNode] | undefined> = {
    parameters: [<Trans>Parameters</Trans>, model.parameters],
    context: [<Trans>Context length</Trans>, <Trans>{tokens(model.contextLength)} tokens</Trans>],
    dimensions: model.dimensions ? [<Trans>Dimensions</Trans>, model.dimensions] : undefined,
    released: [<Trans>Released</Trans>, <ContentDate date={model.releaseDate} />],
  }
  return (
    <dl className={className ?? 'grid grid-cols-2 gap-3'}>
      {fields.map((field) => {
        const row = rows[field]
        if (!row) return null
        return (
          <div key={field} className="flex flex-col gap-0.5">
            <dt className="text-xs text-muted-foreground">{row[0]}</dt>
            <dd className="text-sm font-medium tabular-nums">{row[1]}</dd>
          </div>
        )
      })}
    </dl>
  )
}
