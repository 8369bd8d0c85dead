import { createFileRoute } from '@tanstack/react-router'
import { InternshipPage } from '~/features/marketing/company/internship-page'
import { pageMeta } from '~/features/marketing/page-meta'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/internship')({
  head: (ctx) => pageHead(ctx, pageMeta.internship),
  component: InternshipPage,
})
