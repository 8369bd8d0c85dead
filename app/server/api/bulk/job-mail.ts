import { brand } from '#config'
import { serverEnv } from '~/server/env'
import type { BulkJobRow, JobMail } from '../../domain/bulk-jobs'

const count = (n: number) => n.toLocaleString('en-US')

/** The notice a job's end sends, linking to the dashboard's bulk tab (where the download is). */
export function bulkJobMail(
  to: string,
  job: Pick<BulkJobRow, 'id' | 'fileName' | 'model' | 'totalRows'>,
  end: { status: 'completed' | 'failed'; rows: number; tokens: number; error?: string },
): JobMail {
  const link = `${serverEnv().PUBLIC_BASE_URL.replace(/\/$/, '')}/api-dashboard/bulk-embeddings`
  const name = `"${job.fileName}" (${job.id})`
  if (end.status === 'completed')
    return {
      to,
      subject: `${brand.name}: your bulk embedding job ${job.fileName} is complete`,
      text: `Your bulk embedding job ${name} is complete: ${count(end.rows)} texts embedded with ${job.model}, ${count(end.tokens)} tokens used.\n\nDownload the result: ${link}\n`,
    }
  return {
    to,
    subject: `${brand.name}: your bulk embedding job ${job.fileName} stopped`,
    text: `Your bulk embedding job ${name} stopped: ${end.error}\n\n${count(end.rows)} of ${count(job.totalRows)} texts were embedded (${count(end.tokens)} tokens used); they can be downloaded, and the job can be retried from where it stopped: ${link}\n`,
  }
}
