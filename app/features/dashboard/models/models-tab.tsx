import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { LocalizedLink } from '~/components/site/localized-link'
import { Badge } from '~/components/ui/badge'
import { DataTable } from '~/components/data-table'
import { TableCell, TableRow } from '~/components/ui/table'
import type { ServedModelRecord } from '~/contracts/served-models'
import { cn } from '~/lib/utils'
import { modelTags, type ModelTag } from '#content/vocabulary'
import { CopyButton } from '../copy-button'
import { useFormat } from '~/lib/format'
import { modelsQuery, servedModelsQuery } from '../queries'
import { useModelTagLabels } from '~/lib/model-tags'

/** The model catalogue (the same call as GET /api/v1/models); selected tags narrow it to models carrying all of them. */
export function ModelsTab() {
  const { t } = useLingui()
  const labels = useModelTagLabels()
  const format = useFormat()
  const [tags, setTags] = useState<ModelTag[]>([])
  const models = useQuery(modelsQuery(tags))
  const served = useQuery(servedModelsQuery())
  const servingOf = (slug: string) => served.data?.data.find((model) => model.id === slug)
  const toggle = (tag: ModelTag) =>
    setTags((current) => (current.includes(tag) ? current.filter((x) => x !== tag) : [...current, tag]))

  return (
    <div className="flex flex-col gap-4">
      <div role="group" aria-label={t`Filter by tag`} className="flex flex-wrap gap-1.5">
        {modelTags.map((tag) => (
          <button
            key={tag}
            type="button"
            aria-pressed={tags.includes(tag)}
            onClick={() => toggle(tag)}
            className={cn(
              'rounded-full border px-3 py-1 text-xs focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
              tags.includes(tag)
                ? 'border-primary bg-primary text-primary-foreground hover:bg-primary/90'
                : 'hover:bg-accent',
            )}
          >
            {labels[tag]}
          </button>
        ))}
      </div>
      <DataTable
        query={models}
        count={models.data?.length ?? 0}
        columns={[
          { label: <Trans>Model</Trans> },
          { label: <Trans>API id</Trans> },
          { label: <Trans>Served here</Trans> },
          { label: <Trans>Tags</Trans> },
          { label: <Trans>Context length</Trans>, numeric: true },
          { label: <Trans>Replicas</Trans>, numeric: true },
        ]}
        failed={(error) => <Trans>Models could not be loaded ({error.message}).</Trans>}
        empty={<Trans>No model carries all of the selected tags.</Trans>}
        testId="models"
        skeletonClassName="h-96"
      >
        {(models.data ?? []).map((model) => (
          <TableRow key={model.slug}>
            <TableCell>
              <LocalizedLink
                to="/{-$locale}/models/$slug"
                params={{ slug: model.slug }}
                className="font-medium hover:underline"
              >
                {model.name}
              </LocalizedLink>
            </TableCell>
            <ApiIdCell record={servingOf(model.slug)} />
            <ServedCell record={servingOf(model.slug)} pending={served.isPending} />
            <TableCell>
              <div className="flex flex-wrap gap-1">
                {model.tags.map((tag) => (
                  <Badge key={tag} variant="secondary">
                    {labels[tag as ModelTag] ?? tag}
                  </Badge>
                ))}
              </div>
            </TableCell>
            <TableCell numeric>{model.context_length ? format.tokens(model.context_length) : '—'}</TableCell>
            <TableCell numeric>{model.num_replicas ?? '—'}</TableCell>
          </TableRow>
        ))}
      </DataTable>
    </div>
  )
}

type ServedRecord = ServedModelRecord

/** The id to send in `model`, and the other names the API accepts for it (what client libraries send). */
function ApiIdCell({ record }: { record: ServedRecord | undefined }) {
  const { t } = useLingui()
  if (!record) return <TableCell>—</TableCell>
  return (
    <TableCell>
      <span className="flex items-center gap-1">
        <code className="text-xs whitespace-nowrap" data-testid="model-api-id" translate="no">
          {record.id}
        </code>
        <CopyButton value={record.id} label={t`Copy the API id ${record.id}`} />
      </span>
      {record.aliases.length > 0 && (
        <span className="block text-xs text-muted-foreground">
          <Trans>or {record.aliases.join(', ')}</Trans>
        </span>
      )}
    </TableCell>
  )
}

/** Whether this server serves the model, and with which engine instance (`X-Engine` of its answers). */
function ServedCell({ record, pending }: { record: ServedRecord | undefined; pending: boolean }) {
  if (pending) return <TableCell>…</TableCell>
  if (!record) return <TableCell>—</TableCell>
  return (
    <TableCell>
      {record.served ? (
        <Badge variant="secondary">
          <code className="text-xs">{record.engine}</code>
        </Badge>
      ) : (
        <span className="text-xs text-muted-foreground">
          <Trans>Not served</Trans>
        </span>
      )}
    </TableCell>
  )
}
