import { createFileRoute } from '@tanstack/react-router'
import { AppProviders } from '~/components/site/app-providers'
import { SandboxCheckoutPage } from '~/features/sandbox-checkout/sandbox-checkout-page'
import { pageMeta } from '~/features/marketing/page-meta'
import { pageHead } from '~/lib/seo'

/** The sandbox payment provider's hosted checkout, played by this app (a checkout session's `url`). */
export const Route = createFileRoute('/{-$locale}/sandbox-checkout/$session')({
  head: (ctx) => pageHead(ctx, { ...pageMeta.sandboxCheckout, noindex: true }),
  component: () => (
    <AppProviders>
      <SandboxCheckoutPage />
    </AppProviders>
  ),
})
