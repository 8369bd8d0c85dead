import type * as NodeBackground from './background'

/**
 * A Worker's isolate lives for its requests, so it keeps no timers: the outbox, the bulk-job queue and
 * auto-recharge charges are worked by Node instances (`npm start` or `npm run worker`) on the same database.
 * What the edge commits (queued mail, due recharges) waits in its table for their next poll.
 */
export const startBackgroundWork: typeof NodeBackground.startBackgroundWork = () => {}
