import { createFileRoute, redirect } from '@tanstack/react-router'
import { getDocsEntry } from '#content/docs-index'
import { DocPage } from '~/features/docs/doc-page'
import { fetchDocPage } from '~/features/docs/docs.functions'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/docs/$slug')({
  loader: async ({ params }) => {
    const doc = await fetchDocPage({ data: { slug: params.slug } })
    // A page that does not exist (or no longer does): the index, where every page is listed.
    if (!doc) throw redirect({ to: '/{-$locale}/docs', params: { locale: params.locale }, replace: true })
    return doc
  },
  head: (ctx) => {
    const entry = getDocsEntry(ctx.params.slug)
    return pageHead(ctx, { title: entry?.title ?? ctx.params.slug, description: entry?.description ?? '' })
  },
  component: function DocRoute() {
    return <DocPage slug={Route.useParams().slug} doc={Route.useLoaderData()} />
  },
})
