import { createServerFn } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { serverEnv } from '~/server/env'
import { getDb } from '~/server/db/client'
import { contactLeads, emailOutbox } from '~/server/db/schema'
import { clientAddress } from '~/server/api/client-address'
import { HttpError } from '~/server/http/errors'
import { rateLimit } from '~/server/api/rate-limit'
import { captchaProvider } from '~/server/providers/captcha'
import { kickOutbox } from '~/server/providers/email'
import { contactLeadInput, type ContactLeadInput, type ContactResult } from './contact'

/** Per address: enough for a real person who mistyped, too few for a spam run. */
const LEADS_PER_HOUR = 5

function salesMail(lead: ContactLeadInput, id: string) {
  return {
    subject: `Contact sales: ${lead.company} (${lead.name})`,
    text: [
      'A new contact-sales request arrived through the website.',
      '',
      `Name:    ${lead.name}`,
      `E-mail:  ${lead.email}`,
      `Company: ${lead.company}`,
      `Locale:  ${lead.locale}`,
      `Lead id: ${id}`,
      '',
      lead.message,
    ].join('\n'),
  }
}

/**
 * Contact sales: verify the captcha, then store the lead and queue the e-mail to sales in one transaction,
 * so a lead is never stored without its mail or mailed without being stored. Invalid input never gets
 * here: the validator rejects it before the handler runs.
 */
export const submitContactLead = createServerFn({ method: 'POST' })
  .validator(contactLeadInput)
  .handler(async ({ data }): Promise<ContactResult> => {
    const request = getRequest()
    const address = clientAddress(request)
    try {
      await rateLimit(`contact:addr:${address}`, LEADS_PER_HOUR, 60 * 60 * 1000)
    } catch (error) {
      if (error instanceof HttpError && error.status === 429) return { ok: false, reason: 'rate_limited' }
      throw error
    }
    if (!(await captchaProvider().verify(data.captcha, address))) return { ok: false, reason: 'captcha' }

    const db = await getDb()
    await db.transaction(async (tx) => {
      const [lead] = await tx
        .insert(contactLeads)
        .values({ name: data.name, email: data.email, company: data.company, message: data.message, locale: data.locale })
        .returning({ id: contactLeads.id })
      const mail = salesMail(data, lead.id)
      await tx.insert(emailOutbox).values({ to: serverEnv().SALES_EMAIL, ...mail, kind: 'contact-lead', meta: { leadId: lead.id } })
    })
    kickOutbox()
    return { ok: true }
  })
