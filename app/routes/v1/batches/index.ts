import { createFileRoute } from '@tanstack/react-router'
import { batchCreateBody, batchList, batchListQuery, batchObject } from '~/contracts/batches'
import { batchesFor, createBatch } from '~/server/api/batches/batches'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/v1/batches/')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Create a batch',
          description:
            'OpenAI\'s Batch API: runs every request of an uploaded file (`purpose: "batch"`) against `/v1/embeddings`, `/v1/rerank` or `/v1/classify`, within `completion_window: "24h"`, at half the tokens the same requests cost one by one. A line that is not `{custom_id, method: "POST", url: <endpoint>, body}` is refused (422, naming the line).',
          auth: 'key',
          limit: 'embeddings',
          idempotent: true,
          json: batchCreateBody,
          example: { input_file_id: 'file-abc123', endpoint: '/v1/embeddings', completion_window: '24h' },
          answer: batchObject,
          errors: [401, 402, 403, 404, 409, 422, 429],
        },
        ({ caller, json }) => createBatch(caller, json),
      ),
      GET: endpoint(
        {
          summary: "The key's batches, newest first",
          description: 'A page of `limit` batches (default 20), after the batch `after` names.',
          auth: 'key',
          query: batchListQuery,
          answer: batchList,
          errors: [401, 422, 429],
        },
        ({ caller, query }) => batchesFor(caller, query),
      ),
    },
  },
})
