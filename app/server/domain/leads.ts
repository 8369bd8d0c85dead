import { contactLeads, emailOutbox } from '../db/schema'
import type { Db } from '../db/types'

export interface Lead {
  name: string
  email: string
  company: string
  message: string
  locale: string
}

function salesMail(lead: Lead, id: string) {
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

/** Stores the lead and queues its mail to sales in one transaction: never stored unmailed, never mailed unstored. */
export async function recordLead(db: Db, lead: Lead, salesEmail: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactLeads)
      .values({ name: lead.name, email: lead.email, company: lead.company, message: lead.message, locale: lead.locale })
      .returning({ id: contactLeads.id })
    await tx
      .insert(emailOutbox)
      .values({ to: salesEmail, ...salesMail(lead, row.id), kind: 'contact-lead', meta: { leadId: row.id } })
    return row.id
  })
}
