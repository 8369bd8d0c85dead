import { useLingui as useLinguiRuntime } from '@lingui/react'
import { useLingui } from '@lingui/react/macro'
import { getRouteApi } from '@tanstack/react-router'
import { Suspense } from 'react'
import { LocalizedLink } from '~/components/site/localized-link'
import { cn } from '~/lib/utils'
import { AccountBar } from './account/account-bar'
import { BrowserKeyOffer } from './account/browser-key-offer'
import { DashboardStartProvider } from './dashboard-key'
import { CardSkeleton } from './panels'
import { TabContent } from './tab-content'
import { dashboardTabs, defaultTab } from '~/lib/dashboard-tabs'

const route = getRouteApi('/{-$locale}/api-dashboard/{-$tab}')

/** Centres the current tab in the phone's sideways-scrolling tab list; scrolls only the list, never the page. */
function revealInTabList(link: HTMLAnchorElement | null) {
  const list = link?.closest('ul')
  if (!link || !list || list.scrollWidth <= list.clientWidth) return
  const [tab, row] = [link.getBoundingClientRect(), list.getBoundingClientRect()]
  list.scrollLeft += tab.left - row.left - (row.width - tab.width) / 2
}

export function DashboardPage() {
  const { t } = useLingui()
  const { i18n } = useLinguiRuntime()
  const { tab } = route.useParams()
  const start = route.useLoaderData()
  // Parsed by the route (params.parse): a tab of ours, or none for the default.
  const active = tab ?? defaultTab
  const activeLabel = dashboardTabs.find((entry) => entry.key === active)!.label
  return (
    <DashboardStartProvider start={start}>
      <div className="flex flex-col gap-6">
        <AccountBar />
        <BrowserKeyOffer />
        {/* minmax(0, …) columns: otherwise the tab list's unwrapped labels set the width of the phone's single column. */}
        <div className="grid grid-cols-1 gap-8 md:grid-cols-[14rem_minmax(0,1fr)]">
          <nav aria-label={t`Dashboard`}>
            {/* On phones the tabs scroll sideways in one row; the current one is scrolled into view. */}
            <ul data-testid="dashboard-tabs" className="flex gap-1 overflow-x-auto md:flex-col">
              {dashboardTabs.map((entry) => (
                <li key={entry.key}>
                  <LocalizedLink
                    to="/{-$locale}/api-dashboard/{-$tab}"
                    params={{ tab: entry.key }}
                    aria-current={entry.key === active ? 'page' : undefined}
                    ref={entry.key === active ? revealInTabList : undefined}
                    className={cn(
                      'block rounded-md px-3 py-2 text-sm whitespace-nowrap hover:bg-accent',
                      entry.key === active && 'bg-accent font-medium',
                    )}
                  >
                    {i18n._(entry.label)}
                  </LocalizedLink>
                </li>
              ))}
            </ul>
          </nav>
          <section aria-labelledby="dashboard-title" className="flex min-w-0 flex-col gap-6">
            <h1 id="dashboard-title" className="text-2xl font-semibold tracking-tight">
              {i18n._(activeLabel)}
            </h1>
            {/* Shown only if a tab's code is not there yet; the route's loader fetches it before navigating. */}
            <Suspense fallback={<CardSkeleton />}>
              <TabContent key={active} tab={active} />
            </Suspense>
          </section>
        </div>
      </div>
    </DashboardStartProvider>
  )
}
