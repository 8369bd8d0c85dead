import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { ListState } from '~/components/data-table'
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
        <ListState
          query={jobs}
          count={jobs.data?.length ?? 0}
          failed={(error) => <Trans>Jobs could not be loaded ({error.message}).</Trans>}
          empty={<Trans>No jobs yet. Upload a file above to start one.</Trans>}
        >
          <ul data-testid="bulk-jobs">
            {(jobs.data ?? []).map((job) => (
              <JobRow key={job.id} apiKey={apiKey} job={job} />
            ))}
          </ul>
        </ListState>
      </CardContent>
    </Card>
  )
}
