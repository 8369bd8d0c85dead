import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { useFormat } from '~/lib/format'
import { consumptionQuery } from '../queries'
import { ConsumptionChart } from './consumption-chart'
import { chartRows, type UsagePeriod } from './consumption-data'

/** Chart plus legend; the skeleton matches it so the page does not jump when the usage arrives. */
const chartSkeleton = <Skeleton className="h-[17.5rem] w-full rounded-md" />

export function ConsumptionCard({ apiKey, range, days }: UsagePeriod) {
  const { t } = useLingui()
  const format = useFormat()
  const consumption = useQuery(consumptionQuery(apiKey, range))
  const data = consumption.data && chartRows(consumption.data, range)

  return (
    <Card aria-labelledby="consumption-title">
      <CardHeader>
        <CardTitle id="consumption-title">
          <Trans>Consumption</Trans>
        </CardTitle>
        <CardDescription>
          {consumption.data ? (
            <Trans>
              <span data-testid="consumption-total">{format.tokens(consumption.data.total_tokens)}</span> tokens in the
              last {days} days (UTC).
            </Trans>
          ) : (
            <Trans>Tokens used per day, by product, and per product and model.</Trans>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {consumption.isError ? (
          <p role="alert" className="flex h-[17.5rem] items-center justify-center text-sm text-muted-foreground">
            <Trans>Usage could not be loaded ({consumption.error.message}).</Trans>
          </p>
        ) : !data ? (
          chartSkeleton
        ) : data.products.length === 0 ? (
          <p
            className="flex h-[17.5rem] items-center justify-center text-sm text-muted-foreground"
            data-testid="consumption-empty"
          >
            <Trans>No usage in this period yet. Calls made with this key show up here.</Trans>
          </p>
        ) : (
          <ConsumptionChart rows={data.rows} products={data.products} />
        )}
        {data && data.products.length > 0 && (
          <Table aria-label={t`Tokens per product and model`} data-testid="product-totals">
            <TableHeader>
              <TableRow>
                <TableHead>
                  <Trans>Product</Trans>
                </TableHead>
                <TableHead>
                  <Trans>Model</Trans>
                </TableHead>
                <TableHead numeric>
                  <Trans>Tokens</Trans>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {consumption.data!.by_model.map((row) => (
                <TableRow key={`${row.product} ${row.model}`}>
                  <TableCell>{row.product}</TableCell>
                  <TableCell className="break-all">{row.model ?? '–'}</TableCell>
                  <TableCell numeric>{format.tokens(row.tokens)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  )
}
