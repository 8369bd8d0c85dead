import { createFileRoute, redirect } from '@tanstack/react-router'
import { DashboardPage } from '~/features/dashboard/dashboard-page'
import * as v from 'valibot'
import { dashboardTabSchema, defaultTab, signedInTabs, type DashboardTab } from '~/lib/dashboard-tab-keys'
import { pageMeta } from '~/features/marketing/page-meta'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/api-dashboard/{-$tab}')({
  // The tab is read here once: after it, the guard and the page hold a DashboardTab (undefined: the default,
  // whose URL has no segment), and a URL naming no tab of ours is sent to the default one.
  params: {
    parse: ({ tab }): { tab?: DashboardTab } => {
      if (tab === undefined) return {}
      const parsed = v.safeParse(dashboardTabSchema, tab)
      if (parsed.success) return { tab: parsed.output === defaultTab ? undefined : parsed.output }
      throw redirect({
        to: '/{-$locale}/api-dashboard/{-$tab}',
        params: (current) => ({ ...current, tab: undefined }),
        search: true,
        replace: true,
      })
    },
    stringify: ({ tab }) => ({ tab: tab === defaultTab ? undefined : tab }),
  },
  beforeLoad: async ({ params, search }) => {
    // The session cookie is read on the server (HttpOnly): the guard asks it, on the first load and after.
    // Imported here, not at the top: the route tree is in every page's entry, and the server-function client
    // (~13 KB gzip) would ride along on marketing pages that never ask.
    if (
      params.tab &&
      signedInTabs.has(params.tab) &&
      !(await import('~/features/auth/auth.functions').then(({ fetchViewer }) => fetchViewer()))
    ) {
      throw redirect({
        to: '/{-$locale}/sign-in',
        params: { locale: params.locale },
        search: { tab: params.tab, invitation: search.invitation },
      })
    }
  },
  // The tab's code, and on the server its first data from the `apiKey` cookie: the first HTML shows the balance
  // and the usage instead of skeletons. Both imported here, not at the top, for the reason given above.
  loader: async ({ params }) => {
    const tab = params.tab ?? defaultTab
    const screen = import('~/features/dashboard/tab-content').then(({ loadScreen }) => loadScreen(tab))
    // Imported in browsers too, though only the server calls it: a server function the client build never
    // sees is registered only if the server build happens to compile it before its function table, and a
    // build that lost that race answered every dashboard page 500 ("Server function info not found"). Any such
    // function elsewhere now stops the build (build/server-functions-check.ts).
    const startFunctions = import('~/features/dashboard/start.functions')
    if (!import.meta.env.SSR) {
      // Not called here: a chunk that fails to load fails where a server function is called, not as an
      // unhandled rejection of this import.
      startFunctions.catch(() => undefined)
      return screen.then(() => null)
    }
    // One await for both, so the tab's code is handled from the start: awaited after the imports, a tab that
    // failed to load while they were under way would be an unhandled rejection.
    const [start] = await Promise.all([
      Promise.all([startFunctions, import('~/features/dashboard/start-data')]).then(
        ([{ fetchDashboardStart }, { startTabOf }]) => fetchDashboardStart({ data: { tab: startTabOf(tab) } }),
      ),
      screen,
    ])
    return start
  },
  head: (ctx) => pageHead(ctx, { ...pageMeta.apiDashboard, noindex: true }),
  component: DashboardPage,
})
