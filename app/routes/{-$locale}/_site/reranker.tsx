import { createFileRoute } from '@tanstack/react-router'
import { pageMeta } from '~/features/marketing/page-meta'
import { ProductDemo } from '~/features/demos/live-demo'
import { ProductPage } from '~/features/marketing/product/product-page'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/reranker')({
  head: (ctx) => pageHead(ctx, pageMeta.reranker),
  component: () => <ProductPage productKey="reranker" Demo={ProductDemo} />,
})
