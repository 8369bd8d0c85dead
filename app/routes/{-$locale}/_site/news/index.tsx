import { createFileRoute } from '@tanstack/react-router'
import { pageMeta } from '~/features/marketing/page-meta'
import { NewsListPage } from '~/features/news/news-list-page'
import { fetchNewsList } from '~/features/news/news.functions'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/news/')({
  loader: () => fetchNewsList(),
  head: (ctx) => pageHead(ctx, pageMeta.news),
  component: () => <NewsListPage posts={Route.useLoaderData()} />,
})
