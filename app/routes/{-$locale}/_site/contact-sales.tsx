import { createFileRoute } from '@tanstack/react-router'
import { ContactPage } from '~/features/marketing/contact/contact-page'
import { pageMeta } from '~/features/marketing/page-meta'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/contact-sales')({
  head: (ctx) => pageHead(ctx, pageMeta.contactSales),
  component: ContactPage,
})
