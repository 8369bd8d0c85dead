import { createFileRoute } from '@tanstack/react-router'
import { AppProviders } from '~/components/site/app-providers'
import { SandboxCheckoutPage } from '~/features/sandbox-checkout/sandbox-checkout-page'
import { pageMeta } from '~/features/marketing/page-meta'
import { loadMessages } from '~/lib/i18n'
import { pageHead } from '~/lib/seo'

/** The sandbox payment provider's hosted checkout, played by this app (a checkout session's `url`). */
export const Route = createFileRoute('/{-$locale}/sandbox-checkout/$session')({
  // The live screens' catalog: see the dashboard's layout route.
  loader: ({ context }) => loadMessages(context.locale, 'app'),
  head: (ctx) => pageHead(ctx, { ...pageMeta.sandboxCheckout, noindex: true }),
  component: SandboxCheckout,
})

function SandboxCheckout() {
  return (
    <AppProviders appMessages={Route.useLoaderData()}>
      <SandboxCheckoutPage />
    </AppProviders>
  )
}
