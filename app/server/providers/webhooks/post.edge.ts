import type * as NodePost from './post'

/**
 * Webhooks are delivered by the Node instances' worker (an edge build keeps no background work, and sends to the
 * address it checked over a pinned socket, which a Worker cannot open): nothing on the edge calls this.
 */
export const postWebhook: typeof NodePost.postWebhook = async () => ({
  error: 'Webhooks are delivered by a Node instance',
  durationMs: 0,
})
