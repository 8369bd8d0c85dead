/** Contact sales: a lead from the website, checked for a human and a sane rate, then handed to sales. */
import type { ContactLeadInput, ContactResult } from '~/contracts/contact'
import { getDb } from '../db/client'
import { recordLead } from '../domain/leads'
import { CaptchaRejected, RateLimited } from '../domain/refusals'
import { serverEnv } from '../env'
import { kickOutbox } from '../providers/email'
import { passCaptcha, type Caller } from './caller'
import { limitVerifiedAttempts } from './rate-limit'

/** Per address (or IPv6 /64), verified leads only: enough for a real person who mistyped, too few for a spam run. */
const LEADS = { limit: 5, windowMs: 60 * 60 * 1000 }

/** The form shows its own sentence for each refusal, so they come back as results rather than errors. */
export async function submitLead(caller: Caller, { captcha, ...lead }: ContactLeadInput): Promise<ContactResult> {
  try {
    await limitVerifiedAttempts(`contact:addr:${caller.network}`, LEADS, () =>
      passCaptcha(caller, captcha, 'contact_sales'),
    )
  } catch (error) {
    if (error instanceof RateLimited) return { ok: false, reason: 'rate_limited' }
    if (error instanceof CaptchaRejected) return { ok: false, reason: 'captcha' }
    throw error
  }
  await recordLead(await getDb(), lead, serverEnv().SALES_EMAIL)
  kickOutbox()
  return { ok: true }
}
