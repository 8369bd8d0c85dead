import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Badge } from '~/components/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
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
        {list.isPending ? (
          <Skeleton className="h-32 w-full rounded-md" />
        ) : list.isError ? (
          <p role="alert" className="text-sm text-muted-foreground">
            <Trans>Classifiers could not be loaded ({list.error.message}).</Trans>
          </p>
        ) : list.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            <Trans>No classifiers yet. Train one below.</Trans>
          </p>
        ) : (
          <Table data-testid="classifiers">
            <TableHeader>
              <TableRow>
                <TableHead>
                  <Trans>Classifier</Trans>
                </TableHead>
                <TableHead>
                  <Trans>Labels</Trans>
                </TableHead>
                <TableHead numeric>
                  <Trans>Uses</Trans>
                </TableHead>
                <TableHead numeric>
                  <Trans>Trainings</Trans>
                </TableHead>
                <TableHead>
                  <span className="sr-only">
                    <Trans>Actions</Trans>
                  </span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {list.data.map((item) => (
                <TableRow key={item.classifier_id} data-testid="classifier" data-id={item.classifier_id}>
                  <TableCell>
                    <div className="flex flex-col gap-1">
                      <ClassifierName id={item.classifier_id} />
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
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  )
}
