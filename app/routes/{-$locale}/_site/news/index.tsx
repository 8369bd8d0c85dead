import { createFileRoute } from '@tanstack/react-router'
import { pageMeta } from '~/features/marketing/page-meta'
import { PlaceholderPage } from '~/features/marketing/placeholder-page'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/news/')({
  head: (ctx) => pageHead(ctx, pageMeta.news),
  component: () => <PlaceholderPage page="news" />,
})
