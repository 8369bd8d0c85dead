import { createFileRoute } from '@tanstack/react-router'
import { batchLimits, fileList, fileListQuery, fileObject, fileUploadForm } from '~/contracts/batches'
import { filesFor, uploadFile } from '~/server/api/batches/files'
import { receiveFileUpload } from '~/server/http/file-upload'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/files/')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Upload a file for the Batch API',
          description: `OpenAI's Files API: a JSONL file of requests with \`purpose: "batch"\` (at most ${batchLimits.maxFileBytes / 1024 / 1024} MiB), for POST /v1/batches. Its lines are checked when a batch is created from it.`,
          auth: 'key',
          limit: 'embeddings',
          upload: { schema: fileUploadForm, files: ['file'] },
          answer: fileObject,
          errors: [400, 401, 413, 422, 429, 507],
        },
        ({ caller, request }) => uploadFile(caller, receiveFileUpload(request)),
      ),
      GET: endpoint(
        {
          summary: "The key's files, newest first",
          description: 'A page of `limit` files (`order` asc or desc), after the file `after` names.',
          auth: 'key',
          query: fileListQuery,
          answer: fileList,
          errors: [401, 422, 429],
        },
        ({ caller, query }) => filesFor(caller, query),
      ),
    },
  },
})
