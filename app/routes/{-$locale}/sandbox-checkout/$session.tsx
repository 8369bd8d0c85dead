import { createFileRoute } from '@tanstack/react-router'
import { AppProviders } from '~/components/site/app-providers'
import { SandboxCheckoutPage } from '~/features/sandbox-checkout/sandbox-checkout-page'
import { pageMeta } from '~/features/marketing/page-meta'
import { loadCatalog } from '~/lib/i18n'
import { pageHead } from '~/lib/seo'

/** The sandbox payment provider's hosted checkout, played by this app (a checkout session's `url`). */
export const Route = createFileRoute('/{-$locale}/sandbox-checkout/$session')({
  // The live screens' catalog: see the dashboard's layout route.
  staticData: { catalogs: ['app'] },
  loader: async ({ context }) => void (await loadCatalog(context.locale, 'app')),
  head: (ctx) => pageHead(ctx, { ...pageMeta.sandboxCheckout, noindex: true }),
  component: SandboxCheckout,
})

function SandboxCheckout() {
  return (
    <AppProviders>
      <SandboxCheckoutPage />
    </AppProviders>
  )
}
