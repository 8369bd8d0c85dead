import { createFileRoute } from '@tanstack/react-router'
import { LegalPage } from '~/features/marketing/legal/legal-page'
import { pageMeta } from '~/features/marketing/page-meta'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/legal')({
  head: (ctx) => pageHead(ctx, pageMeta.legal),
  component: LegalPage,
})
