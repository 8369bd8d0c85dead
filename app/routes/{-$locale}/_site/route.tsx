import { createFileRoute, Outlet } from '@tanstack/react-router'
import { SiteFooter } from '~/components/site/footer'
import { SiteHeader } from '~/components/site/header'

/** The main layout of spec §2: header, page, footer. */
export const Route = createFileRoute('/{-$locale}/_site')({
  component: () => (
    <>
      <SiteHeader />
      <main id="main">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  ),
})
