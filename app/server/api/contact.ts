/** Contact sales: a lead from the website, checked for a human and a sane rate, then handed to sales. */
import type { ContactLeadInput, ContactResult } from '~/contracts/contact'
import { getDb } from '../db/client'
import { recordLead } from '../domain/leads'
import { RateLimited } from '../domain/refusals'
import { serverEnv } from '../env'
import { captchaProvider } from '../providers/captcha'
import { kickOutbox } from '../providers/email'
import type { Caller } from './caller'
import { clientAddress } from './client-address'
import { rateLimit } from './rate-limit'

/** Per address: enough for a real person who mistyped, too few for a spam run. */
const LEADS_PER_HOUR = 5

/** The form shows its own sentence for each refusal, so they come back as results rather than errors. */
export async function submitLead(caller: Caller, { captcha, ...lead }: ContactLeadInput): Promise<ContactResult> {
  const address = clientAddress(caller.request)
  try {
    await rateLimit(`contact:addr:${address}`, LEADS_PER_HOUR, 60 * 60 * 1000)
  } catch (error) {
    if (error instanceof RateLimited) return { ok: false, reason: 'rate_limited' }
    throw error
  }
  if (!(await captchaProvider().verify(captcha, address))) return { ok: false, reason: 'captcha' }
  await recordLead(await getDb(), lead, serverEnv().SALES_EMAIL)
  kickOutbox()
  return { ok: true }
}
