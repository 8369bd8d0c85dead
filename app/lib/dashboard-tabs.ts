import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'

/** The dashboard's screens (spec §2); the first is the default when the URL names none. */
export const dashboardTabs = [
  { key: 'key', label: msg`API key` },
  { key: 'account', label: msg`Account` },
  { key: 'usage', label: msg`Usage` },
  { key: 'requests', label: msg`Requests` },
  { key: 'audit', label: msg`Audit` },
  { key: 'billing', label: msg`Billing` },
  { key: 'auto-recharge', label: msg`Auto-recharge` },
  { key: 'notifications', label: msg`Notifications` },
  { key: 'transfer', label: msg`Transfer balance` },
  { key: 'bulk-embeddings', label: msg`Bulk embeddings` },
  { key: 'classifiers', label: msg`Classifiers` },
  { key: 'models', label: msg`Models` },
] as const satisfies ReadonlyArray<{ key: string; label: MessageDescriptor }>

export type DashboardTab = (typeof dashboardTabs)[number]['key']

/** Tabs that need a signed-in user: their route guard sends a visitor to sign in first. */
export const signedInTabs: ReadonlySet<DashboardTab> = new Set(['account'])
export const defaultTab: DashboardTab = 'key'

export function isDashboardTab(value: string | undefined): value is DashboardTab {
  return dashboardTabs.some((tab) => tab.key === value)
}
