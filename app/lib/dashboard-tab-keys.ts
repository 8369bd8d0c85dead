import * as v from 'valibot'

/** The dashboard's screens by their URL segment (spec §2); the first is the default when the URL names none. */
export const dashboardTabKeys = [
  'key',
  'account',
  'members',
  'usage',
  'requests',
  'audit',
  'billing',
  'auto-recharge',
  'notifications',
  'webhooks',
  'transfer',
  'bulk-embeddings',
  'classifiers',
  'models',
] as const

export type DashboardTab = (typeof dashboardTabKeys)[number]

export const defaultTab: DashboardTab = 'key'

/** Tabs that need a signed-in user: their route guard sends a visitor to sign in first. */
export const signedInTabs: ReadonlySet<DashboardTab> = new Set(['account', 'members', 'webhooks'])

/**
 * A tab named in a URL, the one rule for reading it: the dashboard route's `params.parse` and the sign-in
 * page's `?tab=` use it, and everything after them holds a DashboardTab.
 */
export const dashboardTabSchema = v.picklist(dashboardTabKeys)
