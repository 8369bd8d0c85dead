import { createFileRoute } from '@tanstack/react-router'
import { fileDeleted, fileObject } from '~/contracts/batches'
import { deleteFileFor, fileFor } from '~/server/api/batches/files'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/files/$id/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'A file',
          description: "Another key's file is not found (404).",
          auth: 'key',
          answer: fileObject,
          errors: [401, 404, 429],
        },
        ({ caller, params }) => fileFor(caller, params.id),
      ),
      DELETE: endpoint(
        {
          summary: 'Delete a file',
          description: 'A batch created from it keeps its own copy of the requests.',
          auth: 'key',
          answer: fileDeleted,
          errors: [401, 404, 429],
        },
        ({ caller, params }) => deleteFileFor(caller, params.id),
      ),
    },
  },
})
