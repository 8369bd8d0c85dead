import { emailOutbox } from '../db/schema'
import type { Db } from '../db/types'

/** The mail an account's owner gets when someone signs up with their address: where to sign in or reset instead. */
export interface SignUpNotice {
  subject: string
  text: string
}

/**
 * Queues that mail. Sign-up answers the same whether or not the address has an account, so this mail is the
 * only place that says it has one: it goes to the address, never to whoever asked.
 */
export async function queueSignUpNotice(db: Db, to: string, notice: SignUpNotice): Promise<void> {
  await db.insert(emailOutbox).values({ to, ...notice, kind: 'sign-up-existing-account' })
}
