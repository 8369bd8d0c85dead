import { NeedsNode } from '../../../domain/refusals'
import type * as OffThread from './convert-off-thread'

/**
 * A Worker has no worker threads to convert pages on, and no socket-level fetch to read them with: an edge
 * build routes /r and deep search to READER_UPSTREAM (node-backend.edge.ts) and refuses what still reaches here.
 */
export const convertOffThread: typeof OffThread.convertOffThread = async () => {
  throw new NeedsNode('reader')
}

/** Nothing to start: see above. */
export const startConversionPool: typeof OffThread.startConversionPool = () => {}
