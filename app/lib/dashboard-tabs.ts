import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { dashboardTabKeys, type DashboardTab } from './dashboard-tab-keys'

export { defaultTab, signedInTabs, type DashboardTab } from './dashboard-tab-keys'

const labels: Record<DashboardTab, MessageDescriptor> = {
  key: msg`API key`,
  account: msg`Account`,
  members: msg`Members`,
  usage: msg`Usage`,
  requests: msg`Requests`,
  audit: msg`Audit`,
  billing: msg`Billing`,
  'auto-recharge': msg`Auto-recharge`,
  notifications: msg`Notifications`,
  webhooks: msg`Webhooks`,
  transfer: msg`Transfer balance`,
  'bulk-embeddings': msg`Bulk embeddings`,
  classifiers: msg`Classifiers`,
  models: msg`Models`,
}

/** The dashboard's screens with their names, in the order of its navigation. */
export const dashboardTabs = dashboardTabKeys.map((key) => ({ key, label: labels[key] }))
