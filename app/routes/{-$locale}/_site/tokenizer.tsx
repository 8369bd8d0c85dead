import { createFileRoute } from '@tanstack/react-router'
import { pageMeta } from '~/features/marketing/page-meta'
import { ProductDemo } from '~/features/demos/live-demo'
import { ProductPage } from '~/features/marketing/product/product-page'
import { pageHead } from '~/lib/seo'

/** Spec §2: the old tokenizer path shows the same page as /segmenter. */
export const Route = createFileRoute('/{-$locale}/_site/tokenizer')({
  head: (ctx) => pageHead(ctx, pageMeta.segmenter),
  component: () => <ProductPage productKey="segmenter" Demo={ProductDemo} />,
})
