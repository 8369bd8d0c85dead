import type * as NodeWorker from './worker'

/**
 * An edge build works no bulk jobs: its isolates live for a request, and the uploads that queue jobs are
 * routed to BULK_UPSTREAM. The Node instances' workers poll the shared queue.
 */
export const LEASE_SECONDS: typeof NodeWorker.LEASE_SECONDS = 60
export const workBulkQueue: typeof NodeWorker.workBulkQueue = async () => 0
export const kickBulkWorker: typeof NodeWorker.kickBulkWorker = () => {}
export const startBulkWorker: typeof NodeWorker.startBulkWorker = () => {}
export const stopBulkWorker: typeof NodeWorker.stopBulkWorker = async () => {}
