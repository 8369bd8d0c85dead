import type { QueryKey } from '@tanstack/react-query'
import type * as v from 'valibot'
import type { BalanceNotification, ConsumptionTotals, TransactionPage } from '~/contracts/billing'
import type { ModelRecord, Pack } from '~/contracts/catalogue'
import type { KeyInfo } from '~/contracts/keys'
import type { RechargeStatus } from '~/contracts/payments'
import type { servedModelsAnswer } from '~/contracts/served-models'
import type { UsageSummary } from '~/contracts/usage-summary'
import { dashboardKeys } from './queries'
import type { DashboardTab } from '~/lib/dashboard-tab-keys'

/**
 * The tabs whose first screen the server fills in; every other tab gets the key and its balance. A tab whose
 * screen waits on a read the server did not make shows a skeleton until the app has started and read it: its
 * largest paint comes seconds late on a phone (Lighthouse: LCP 3.8 s on these three before they were here).
 */
export const startTabs = [
  'key',
  'usage',
  'notifications',
  'auto-recharge',
  'models',
  'other',
] as const satisfies ReadonlyArray<DashboardTab | 'other'>
export type StartTab = (typeof startTabs)[number]

export const startTabOf = (tab: DashboardTab): StartTab =>
  (startTabs as readonly string[]).includes(tab) ? (tab as StartTab) : 'other'

/** The page of transactions the balance card and the usage tab ask for first. */
export const transactionsPageSize = 20

/** A tab's first data as the server read it for the `apiKey` cookie's key; what it could not read is left out. */
export interface DashboardStart {
  apiKey: string
  /** The usage tab's first period, as the server counted it (UTC days). */
  range: { start: string; end: string }
  keyInfo?: KeyInfo
  transactions?: TransactionPage
  usageSummary?: UsageSummary
  consumption?: ConsumptionTotals
  notification?: BalanceNotification
  rechargeStatus?: RechargeStatus
  /** The packs on offer, which the auto-recharge form picks from. */
  products?: Pack[]
  /** The catalogue with no tag selected, and what this server serves of it. */
  models?: ModelRecord[]
  servedModels?: v.InferInput<typeof servedModelsAnswer>
  /**
   * What the account bar will show once the browser has checked: known on the server when sign-in is off or
   * the request has no session, so the bar is drawn with the page rather than appearing after the check (it
   * was then the largest paint of a tab with little else, seconds late on a phone). Unset: a session to check.
   */
  account?: 'signed-out' | 'unavailable'
}

/** Each answer under the query key the screens read it by (queries.ts, summary-query.ts). */
export function startQueries(start: DashboardStart): Array<[QueryKey, unknown]> {
  const { apiKey, range } = start
  const entries: Array<[QueryKey, unknown]> = []
  if (start.keyInfo) entries.push([dashboardKeys.keyInfo(apiKey), start.keyInfo])
  if (start.transactions)
    entries.push([
      dashboardKeys.transactions(apiKey, transactionsPageSize),
      { pages: [start.transactions], pageParams: [undefined] },
    ])
  if (start.usageSummary) entries.push([dashboardKeys.usageSummary(apiKey, range, ''), start.usageSummary])
  if (start.consumption) entries.push([dashboardKeys.consumption(apiKey, range.start, range.end), start.consumption])
  if (start.notification) entries.push([dashboardKeys.notification(apiKey), start.notification])
  if (start.rechargeStatus) entries.push([dashboardKeys.rechargeStatus(apiKey), start.rechargeStatus])
  if (start.products) entries.push([dashboardKeys.products, start.products])
  if (start.models) entries.push([dashboardKeys.models([]), start.models])
  if (start.servedModels) entries.push([dashboardKeys.servedModels, start.servedModels])
  return entries
}
