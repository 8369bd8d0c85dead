import type * as NodeMetrics from './metrics'

/** The edge build keeps no metrics (each isolate would count alone): every recorder does nothing, and /metrics is 404. */
export const recordRequest: typeof NodeMetrics.recordRequest = () => {}
export const recordLedgerBatch: typeof NodeMetrics.recordLedgerBatch = () => {}
export const recordDbQuery: typeof NodeMetrics.recordDbQuery = () => {}
export const recordDbPoolMax: typeof NodeMetrics.recordDbPoolMax = () => {}
export const gaugeOnScrape: typeof NodeMetrics.gaugeOnScrape = () => {}
export const metricsExposition: typeof NodeMetrics.metricsExposition = async () => undefined
