import { lazy, type ComponentType, type LazyExoticComponent } from 'react'
import { dashboardTabs, type DashboardTab } from '~/lib/dashboard-tabs'

/** Each tab's code is its own chunk, fetched with the tab: the key tab never downloads the usage tab's. */
const loaders: Record<DashboardTab, () => Promise<ComponentType>> = {
  key: () => import('./key/key-tab').then((m) => m.KeyTab),
  account: () => import('./account/account-tab').then((m) => m.AccountTab),
  members: () => import('./members/members-tab').then((m) => m.MembersTab),
  usage: () => import('./usage/usage-tab').then((m) => m.UsageTab),
  requests: () => import('./requests/requests-tab').then((m) => m.RequestsTab),
  audit: () => import('./audit/audit-tab').then((m) => m.AuditTab),
  billing: () => import('./billing/billing-tab').then((m) => m.BillingTab),
  'auto-recharge': () => import('./auto-recharge/auto-recharge-tab').then((m) => m.AutoRechargeTab),
  notifications: () => import('./notifications/notifications-tab').then((m) => m.NotificationsTab),
  webhooks: () => import('./webhooks/webhooks-tab').then((m) => m.WebhooksTab),
  transfer: () => import('./transfer/transfer-tab').then((m) => m.TransferTab),
  'bulk-embeddings': () => import('./bulk/bulk-tab').then((m) => m.BulkTab),
  classifiers: () => import('./classifiers/classifiers-tab').then((m) => m.ClassifiersTab),
  models: () => import('./models/models-tab').then((m) => m.ModelsTab),
}

const loaded = new Map<DashboardTab, ComponentType>()

/** Fetches a tab's code; the route's loader waits for it, so a rendered tab never suspends. */
export function loadScreen(tab: DashboardTab): Promise<void> {
  return loaders[tab]().then((Screen) => void loaded.set(tab, Screen))
}

/**
 * A tab's screen. Code already loaded (on the server, and on a navigation, whose loader fetched it) resolves at
 * once: a thenable that answers synchronously, so React never suspends on it. Only the browser's hydration of
 * the first tab waits for its chunk, and keeps the server's HTML meanwhile.
 */
const screens = Object.fromEntries(
  dashboardTabs.map(({ key }) => [
    key,
    lazy(() => {
      const Screen = loaded.get(key)
      if (!Screen) return loaders[key]().then((Loaded) => ({ default: Loaded }))
      return { then: (resolve: (module: { default: ComponentType }) => void) => resolve({ default: Screen }) } as never
    }),
  ]),
) as Record<DashboardTab, LazyExoticComponent<ComponentType>>

export function TabContent({ tab }: { tab: DashboardTab }) {
  const Screen = screens[tab]
  return <Screen />
}
