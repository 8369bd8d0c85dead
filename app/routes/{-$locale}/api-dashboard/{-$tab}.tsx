import { createFileRoute, redirect } from '@tanstack/react-router'
import { DashboardPage } from '~/features/dashboard/dashboard-page'
import { isDashboardTab } from '~/features/dashboard/tabs'
import { pageMeta } from '~/features/marketing/page-meta'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/api-dashboard/{-$tab}')({
  beforeLoad: ({ params, search }) => {
    if (params.tab !== undefined && !isDashboardTab(params.tab)) {
      throw redirect({
        to: '/{-$locale}/api-dashboard/{-$tab}',
        params: { locale: params.locale, tab: undefined },
        search,
        replace: true,
      })
    }
  },
  head: (ctx) => pageHead(ctx, { ...pageMeta.apiDashboard, noindex: true }),
  component: DashboardPage,
})
