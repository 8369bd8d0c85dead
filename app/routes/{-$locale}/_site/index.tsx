import { createFileRoute } from '@tanstack/react-router'
import { LandingPage } from '~/features/marketing/landing/landing-page'
import { organizationJsonLd } from '~/features/marketing/json-ld'
import { pageMeta } from '~/features/marketing/page-meta'
import { fetchNewsList } from '~/features/news/news.functions'
import { pageHead, rootData } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/')({
  loader: () => fetchNewsList(),
  head: (ctx) => pageHead(ctx, { ...pageMeta.landing, jsonLd: organizationJsonLd(rootData(ctx.matches).baseUrl) }),
  component: Landing,
})

function Landing() {
  return <LandingPage news={Route.useLoaderData()} />
}
