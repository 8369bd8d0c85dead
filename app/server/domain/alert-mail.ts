import { brand } from '../../../app.config'
import { serverEnv } from '~/server/env'

/** The mail's "Top up" link: the dashboard's Billing tab, where packs are bought (its alerts are one tab away). */
export const topUpPageUrl = () => `${serverEnv().PUBLIC_BASE_URL.replace(/\/$/, '')}/api-dashboard/billing`

/** `format()` templates of the balance alert mail. Subject: brand, threshold. Body: prefix, last4, balance, threshold, link. */
export const alertMail = {
  subject: '%s: your API key balance fell below %s tokens',
  body: 'Your API key %s…%s has %s tokens left, below the alert threshold of %s tokens you set.\n\nTop up or change your alerts: %s\n',
}

/** The `alert` argument of ledger_apply: the database writes the mail in the transaction that crossed the threshold. */
export const alertText = () => ({
  subject: alertMail.subject,
  body: alertMail.body,
  brand: brand.name,
  link: topUpPageUrl(),
})
