import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Badge } from '~/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DataTable } from '~/components/data-table'
import { TableCell, TableRow } from '~/components/ui/table'
import { searchLimits } from '~/contracts/search'
import { CopyButton } from '../copy-button'
import { useFormat } from '~/lib/format'
import { ClassifierName } from './classifier-name'
import { DeleteClassifierDialog } from './delete-dialog'
import { classifiersQuery } from './queries'

export function ClassifierList({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const format = useFormat()
  const list = useQuery(classifiersQuery(apiKey))
  const access = { public: t`Public`, private: t`Private` }
  return (
    <Card aria-labelledby="classifiers-title">
      <CardHeader>
        <CardTitle id="classifiers-title">
          <Trans>Your classifiers</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            Up to {searchLimits.maxClassifiersPerKey} classifiers per key, each with up to {searchLimits.maxClasses}{' '}
            labels. A public classifier can be used by any key, but only yours can train or delete it.
          </Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <DataTable
          query={list}
          count={list.data?.length ?? 0}
          columns={[
            { label: <Trans>Classifier</Trans> },
            { label: <Trans>Labels</Trans> },
            { label: <Trans>Uses</Trans>, numeric: true },
            { label: <Trans>Trainings</Trans>, numeric: true },
            {
              label: (
                <span className="sr-only">
                  <Trans>Actions</Trans>
                </span>
              ),
            },
          ]}
          failed={(error) => <Trans>Classifiers could not be loaded ({error.message}).</Trans>}
          empty={<Trans>No classifiers yet. Train one below.</Trans>}
          testId="classifiers"
        >
          {(list.data ?? []).map((item) => (
            <TableRow key={item.classifier_id} data-testid="classifier" data-id={item.classifier_id}>
              <TableCell>
                <div className="flex flex-col gap-1">
                  <ClassifierName apiKey={apiKey} id={item.classifier_id} name={item.name} />
                  <span className="flex items-center gap-1">
                    <code className="text-xs break-all" translate="no">
                      {item.classifier_id}
                    </code>
                    <CopyButton
                      value={item.classifier_id}
                      label={t`Copy the classifier id`}
                      testId="copy-classifier-id"
                    />
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {item.model_name} · {access[item.access]} · {format.dateTime(item.updated_at)}
                  </span>
                </div>
              </TableCell>
              <TableCell>
                <div className="flex flex-wrap gap-1">
                  {item.labels.map((label) => (
                    <Badge key={label} variant="outline">
                      {label}
                    </Badge>
                  ))}
                </div>
              </TableCell>
              <TableCell numeric>{format.tokens(item.used_number)}</TableCell>
              <TableCell numeric>{format.tokens(item.updated_number)}</TableCell>
              <TableCell numeric>
                <DeleteClassifierDialog apiKey={apiKey} id={item.classifier_id} />
              </TableCell>
            </TableRow>
          ))}
        </DataTable>
      </CardContent>
    </Card>
  )
}
