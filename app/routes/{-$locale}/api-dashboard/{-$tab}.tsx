import { createFileRoute, redirect } from '@tanstack/react-router'
import { DashboardPage } from '~/features/dashboard/dashboard-page'
import { isDashboardTab, signedInTabs } from '~/lib/dashboard-tabs'
import { pageMeta } from '~/features/marketing/page-meta'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/api-dashboard/{-$tab}')({
  beforeLoad: async ({ params, search }) => {
    if (params.tab !== undefined && !isDashboardTab(params.tab)) {
      throw redirect({
        to: '/{-$locale}/api-dashboard/{-$tab}',
        params: { locale: params.locale, tab: undefined },
        search,
        replace: true,
      })
    }
    // The session cookie is read on the server (HttpOnly): the guard asks it, on the first load and after.
    // Imported here, not at the top: the route tree is in every page's entry, and the server-function client
    // (~13 KB gzip) would ride along on marketing pages that never ask.
    if (
      isDashboardTab(params.tab) &&
      signedInTabs.has(params.tab) &&
      !(await import('~/features/auth/auth.functions').then(({ fetchViewer }) => fetchViewer()))
    ) {
      throw redirect({ to: '/{-$locale}/sign-in', params: { locale: params.locale }, search: { tab: params.tab } })
    }
  },
  head: (ctx) => pageHead(ctx, { ...pageMeta.apiDashboard, noindex: true }),
  component: DashboardPage,
})
