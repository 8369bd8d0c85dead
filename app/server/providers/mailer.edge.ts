import type * as NodeMailer from './mailer'

/** Never reached: an edge build queues mail in the outbox and Node instances send it (email.ts `kickOutbox`). */
export const createMailer: typeof NodeMailer.createMailer = async () => {
  throw new Error('the edge build sends no e-mail: the outbox is drained by a Node instance')
}
