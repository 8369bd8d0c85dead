import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { DownloadIcon, RotateCcwIcon, XIcon } from 'lucide-react'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Meter } from '~/components/ui/meter'
import type { BulkJob, BulkJobStatus } from '~/contracts/bulk'
import { useFormat } from '~/lib/format'
import { cancelJobMutation, downloadLinkMutation, retryJobMutation } from './queries'

function useStatusLabel(): Record<BulkJobStatus, string> {
  const { t } = useLingui()
  return { waiting: t`Waiting`, 'in-progress': t`In progress`, failed: t`Failed`, completed: t`Completed` }
}

const statusVariant = {
  waiting: 'outline',
  'in-progress': 'accent',
  failed: 'secondary',
  completed: 'success',
} as const

/** One job: what it is, how far it got, what it cost, and what can be done with it now. */
export function JobRow({ apiKey, job }: { apiKey: string; job: BulkJob }) {
  const { t } = useLingui()
  const format = useFormat()
  const status = useStatusLabel()
  const queryClient = useQueryClient()
  const cancel = useMutation(cancelJobMutation(queryClient))
  const retry = useMutation(retryJobMutation(queryClient))
  const download = useMutation(downloadLinkMutation())
  const done = format.tokens(job.processed_rows)
  const total = format.tokens(job.total_rows)
  const percent = job.total_rows ? Math.floor((job.processed_rows / job.total_rows) * 100) : 0

  const fetchResult = () =>
    download.mutate(
      { apiKey, id: job.id },
      {
        onSuccess: ({ download_url }) => {
          // An anchor, not window.open: the link answers with an attachment, so the page stays where it is.
          const anchor = document.createElement('a')
          anchor.href = download_url
          anchor.rel = 'noopener'
          anchor.click()
        },
      },
    )

  return (
    <li className="flex flex-col gap-3 border-b py-4 last:border-b-0" data-testid="bulk-job" data-status={job.status}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-col">
          <span className="font-medium break-all">{job.file_name}</span>
          <span className="text-xs text-muted-foreground">
            {job.model_name} · {format.dateTime(job.created_at)}
          </span>
        </div>
        <Badge variant={statusVariant[job.status]}>{status[job.status]}</Badge>
      </div>
      <Meter
        value={job.processed_rows}
        max={job.total_rows}
        aria-label={t`Progress of ${job.file_name}`}
        valueText={t`${done} of ${total} texts`}
        data-testid="job-progress"
        data-percent={percent}
      />
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-muted-foreground">
        <span>
          <Trans>
            {done} of {total} texts ({percent}%) · {format.tokens(job.used_token_count)} of{' '}
            {format.tokens(job.total_token_count)} tokens charged
          </Trans>
        </span>
        <div className="flex flex-wrap gap-2">
          {(job.status === 'waiting' || job.status === 'in-progress') && (
            <Button
              size="sm"
              variant="outline"
              disabled={cancel.isPending}
              onClick={() => cancel.mutate({ apiKey, id: job.id })}
            >
              <XIcon aria-hidden="true" />
              <Trans>Cancel</Trans>
            </Button>
          )}
          {job.status === 'failed' && (
            <Button
              size="sm"
              variant="outline"
              disabled={retry.isPending}
              onClick={() => retry.mutate({ apiKey, id: job.id })}
            >
              <RotateCcwIcon aria-hidden="true" />
              <Trans>Retry</Trans>
            </Button>
          )}
          {job.downloadable && (
            <Button size="sm" disabled={download.isPending} onClick={fetchResult} data-testid="download-result">
              <DownloadIcon aria-hidden="true" />
              <Trans>Download</Trans>
            </Button>
          )}
        </div>
      </div>
      {job.error && (
        <p className="text-sm text-destructive" role="status">
          {job.error}
        </p>
      )}
    </li>
  )
}
