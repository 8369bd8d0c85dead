import { brand } from '../../../app.config'
import { serverEnv } from '~/server/env'

export const alertsPageUrl = () => `${serverEnv().PUBLIC_BASE_URL.replace(/\/$/, '')}/api-dashboard/notifications`

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
  link: alertsPageUrl(),
})
