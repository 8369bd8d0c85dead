import { NeedsNode } from '../domain/refusals'
import type * as NodeMultipart from './multipart'

export type { UploadedFile, UploadLimits } from './multipart'

/** Bulk uploads go to BULK_UPSTREAM (node-backend.edge.ts); busboy stays out of the Worker. */
export const readUpload: typeof NodeMultipart.readUpload = async () => {
  throw new NeedsNode('bulk')
}
