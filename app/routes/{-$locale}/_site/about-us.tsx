import { createFileRoute } from '@tanstack/react-router'
import { AboutPage } from '~/features/marketing/company/about-page'
import { pageMeta } from '~/features/marketing/page-meta'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/about-us')({
  head: (ctx) => pageHead(ctx, pageMeta.aboutUs),
  component: AboutPage,
})
