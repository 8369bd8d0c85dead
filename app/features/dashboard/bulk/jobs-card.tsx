import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import { JobRow } from './job-row'
import { bulkJobsQuery } from './queries'

export function JobsCard({ apiKey }: { apiKey: string }) {
  const jobs = useQuery(bulkJobsQuery(apiKey))
  return (
    <Card aria-labelledby="bulk-jobs-title">
      <CardHeader>
        <CardTitle id="bulk-jobs-title">
          <Trans>Your jobs</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            Results are JSON lines, one line per text in input order with its index, its id and its vector. A job that
            stopped keeps what it embedded: download it, or retry the job from where it stopped.
          </Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        {jobs.isPending ? (
          <Skeleton className="h-32 w-full rounded-md" />
        ) : jobs.isError ? (
          <p role="alert" className="text-sm text-muted-foreground">
            <Trans>Jobs could not be loaded ({jobs.error.message}).</Trans>
          </p>
        ) : jobs.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            <Trans>No jobs yet. Upload a file above to start one.</Trans>
          </p>
        ) : (
          <ul data-testid="bulk-jobs">
            {jobs.data.map((job) => (
              <JobRow key={job.id} apiKey={apiKey} job={job} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
