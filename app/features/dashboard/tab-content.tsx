import type * as React from 'react'
import { AccountTab } from './account/account-tab'
import { AuditTab } from './audit/audit-tab'
import { AutoRechargeTab } from './auto-recharge/auto-recharge-tab'
import { BillingTab } from './billing/billing-tab'
import { BulkTab } from './bulk/bulk-tab'
import { ClassifiersTab } from './classifiers/classifiers-tab'
import { KeyTab } from './key/key-tab'
import { ModelsTab } from './models/models-tab'
import { NotificationsTab } from './notifications/notifications-tab'
import { RequestsTab } from './requests/requests-tab'
import type { DashboardTab } from '~/lib/dashboard-tabs'
import { TransferTab } from './transfer/transfer-tab'
import { UsageTab } from './usage/usage-tab'

const screens: Record<DashboardTab, () => React.ReactNode> = {
  key: KeyTab,
  account: AccountTab,
  usage: UsageTab,
  requests: RequestsTab,
  audit: AuditTab,
  billing: BillingTab,
  'auto-recharge': AutoRechargeTab,
  notifications: NotificationsTab,
  transfer: TransferTab,
  'bulk-embeddings': BulkTab,
  classifiers: ClassifiersTab,
  models: ModelsTab,
}

export function TabContent({ tab }: { tab: DashboardTab }) {
  const Screen = screens[tab]
  return <Screen />
}
