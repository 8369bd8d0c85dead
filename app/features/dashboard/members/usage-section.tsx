import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Skeleton } from '~/components/ui/skeleton'
import type { Organisation } from '~/contracts/organisations'
import { useFormat } from '~/lib/format'
import { lastDays } from '../usage/consumption-data'
import { organisationUsageQuery } from '../usage/organisation-usage'
import { SummaryTables } from '../usage/summary-tables'
import { refusalText } from './queries'
import { Section } from './section'

const DAYS = 30

/**
 * The organisation's usage over all its keys for the last 30 days, per product and model, key, project and day:
 * every role may read it (a viewer's whole view), and no key in this browser is needed for it.
 */
export function UsageSection({ organisation }: { organisation: Organisation }) {
  const format = useFormat()
  const usage = useQuery(organisationUsageQuery(organisation.id, lastDays(DAYS), ''))
  const totals = usage.data?.totals
  return (
    <Section id="organisation-usage" title={<Trans>Usage of the last {DAYS} days</Trans>}>
      {usage.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : usage.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {refusalText(usage.error)}
        </p>
      ) : totals && usage.data.by_model.length ? (
        <>
          <p className="text-sm" data-testid="organisation-usage-totals">
            <Trans>
              {format.tokens(totals.requests)} requests answered, {format.tokens(totals.refused)} refused, using{' '}
              {format.tokens(totals.tokens)} tokens.
            </Trans>
          </p>
          <SummaryTables summary={usage.data} showKeys />
        </>
      ) : (
        <p className="text-sm text-muted-foreground">
          <Trans>No requests in this period yet.</Trans>
        </p>
      )}
    </Section>
  )
}
