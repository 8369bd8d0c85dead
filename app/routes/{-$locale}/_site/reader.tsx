import { createFileRoute } from '@tanstack/react-router'
import { pageMeta } from '~/features/marketing/page-meta'
import { ProductDemo } from '~/features/demos/live-demo'
import { ProductPage } from '~/features/marketing/product/product-page'
import { ReaderOptionsSection } from '~/features/marketing/product/reader-options'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/reader')({
  head: (ctx) => pageHead(ctx, pageMeta.reader),
  component: () => (
    <ProductPage productKey="reader" Demo={ProductDemo} apiSectionId="read">
      <ReaderOptionsSection />
    </ProductPage>
  ),
})
