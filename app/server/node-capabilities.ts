import type { ServerEnv } from './env'

/**
 * What the edge build (npm run build:edge) cannot do itself and hands to a Node instance of this same app,
 * each with the setting that names that instance. Shared by the router (app/server/http/node-backend.edge.ts),
 * the 501 answer when the setting is missing, and the README's table.
 */
export const nodeCapabilities = {
  reader: {
    variable: 'READER_UPSTREAM',
    label: 'the reader and deep search',
    why: 'they resolve and pin page addresses themselves (node:dns, node:http) and convert pages in child processes',
  },
  embeddings: {
    variable: 'EMBEDDINGS_UPSTREAM',
    label: 'the onnx and use-lite inference engines',
    why: 'ONNX Runtime is native code, and use-lite runs on a worker thread with weights read from its package folder',
  },
  bulk: {
    variable: 'BULK_UPSTREAM',
    label: 'bulk embeddings',
    why: 'uploads stream to disk or S3 and the jobs are worked by Node workers',
  },
} as const satisfies Record<string, { variable: keyof ServerEnv; label: string; why: string }>

export type NodeCapability = keyof typeof nodeCapabilities
