import { CardSkeleton, WithApiKey } from '../panels'
import { JobsCard } from './jobs-card'
import { UploadCard } from './upload-card'

const skeleton = <CardSkeleton className="h-[28rem] w-full rounded-xl" />

/** Bulk embeddings: a file of texts in, a file of vectors out, with the job's progress in between. */
export function BulkTab() {
  return (
    <WithApiKey skeleton={skeleton}>
      {(apiKey) => (
        <div className="flex flex-col gap-6">
          <UploadCard apiKey={apiKey} />
          <JobsCard apiKey={apiKey} />
        </div>
      )}
    </WithApiKey>
  )
}
