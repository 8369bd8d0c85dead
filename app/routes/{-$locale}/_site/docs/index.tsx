import { msg } from '@lingui/core/macro'
import { createFileRoute } from '@tanstack/react-router'
import { DocsIndexPage } from '~/features/docs/docs-index-page'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/docs/')({
  head: (ctx) =>
    pageHead(ctx, {
      title: msg`Documentation`,
      description: msg`How to call the search APIs: quickstart, authentication, every API with its options and errors, limits, billing and self-hosting.`,
    }),
  component: DocsIndexPage,
})
