import { brand } from '#config'
import { serverEnv } from '~/server/env'
import { listUsdPerToken } from './packs'

/** The mail's "Top up" link: the dashboard's Billing tab, where packs are bought (its alerts are one tab away). */
export const topUpPageUrl = () => `${serverEnv().PUBLIC_BASE_URL.replace(/\/$/, '')}/api-dashboard/billing`

/** `format()` templates of the balance alert mail. Subject: brand, threshold. Body: prefix, last4, balance, threshold, link. */
export const alertMail = {
  subject: '%s: your API key balance fell below %s tokens',
  body: 'Your API key %s…%s has %s tokens left, below the alert threshold of %s tokens you set.\n\nTop up or change your alerts: %s\n',
}

/** Where a key's spend limits are seen and changed: the dashboard's Account tab (each key's Controls). */
export const limitsPageUrl = () => `${serverEnv().PUBLIC_BASE_URL.replace(/\/$/, '')}/api-dashboard/account`

/**
 * `format()` templates of the spend-limit alert mail. Subject: brand, percentage. Body: prefix, last4, used,
 * period adjective, limit, reset time, link.
 */
export const limitAlertMail = {
  subject: '%s: your API key used %s of a spend limit',
  body: 'Your API key %s…%s has used %s of its %s spend limit of %s. Past the limit its requests are refused until the limit resets at %s.\n\nSee or change its limits: %s\n',
  periods: { day: 'daily', week: 'weekly', month: 'monthly' },
}

/**
 * The `alert` argument of ledger_apply_v3: the database writes the mail in the transaction that crossed the
 * threshold or the limit's share; dollar limits are measured at the list price where a key bought nothing.
 */
export const alertText = () => ({
  subject: alertMail.subject,
  body: alertMail.body,
  brand: brand.name,
  link: topUpPageUrl(),
  limit_subject: limitAlertMail.subject,
  limit_body: limitAlertMail.body,
  limit_periods: limitAlertMail.periods,
  limit_link: limitsPageUrl(),
  list_usd_per_token: listUsdPerToken(),
})
