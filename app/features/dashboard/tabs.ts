import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'

/** The dashboard's screens (spec §2); the first is the default when the URL names none. */
export const dashboardTabs = [
  { key: 'key', label: msg`API key` },
  { key: 'usage', label: msg`Usage` },
  { key: 'billing', label: msg`Billing` },
  { key: 'auto-recharge', label: msg`Auto-recharge` },
  { key: 'notifications', label: msg`Notifications` },
  { key: 'transfer', label: msg`Transfer balance` },
  { key: 'bulk-embeddings', label: msg`Bulk embeddings` },
  { key: 'classifiers', label: msg`Classifiers` },
  { key: 'models', label: msg`Models` },
] as const satisfies ReadonlyArray<{ key: string; label: MessageDescriptor }>

export type DashboardTab = (typeof dashboardTabs)[number]['key']
export const defaultTab: DashboardTab = 'key'

export function isDashboardTab(value: string | undefined): value is DashboardTab {
  return dashboardTabs.some((tab) => tab.key === value)
}
