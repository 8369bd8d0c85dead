import { NeedsNode } from '../../domain/refusals'
import type * as NodeFetch from './node-fetch'

/**
 * The reader resolves and pins page addresses itself, which needs node:dns and node:http: an edge build
 * routes /r and deep search to READER_UPSTREAM (node-backend.edge.ts) and refuses what still reaches here.
 */
export const fetchPage: typeof NodeFetch.fetchPage = async () => {
  throw new NeedsNode('reader')
}

/** The browser engine's fetch of a page's subresources: no browser, and no pinned fetch, on the edge either. */
export const fetchResource: typeof NodeFetch.fetchResource = async () => {
  throw new NeedsNode('reader')
}
