import { NeedsNode } from '../../domain/refusals'
import type * as NodeStorage from './index'

export { ObjectMissing, type ObjectStorage } from './types'

/** Bulk-job files live with the Node instances that work the jobs (BULK_UPSTREAM, node-backend.edge.ts). */
export const objectStorage: typeof NodeStorage.objectStorage = () => {
  throw new NeedsNode('bulk')
}
