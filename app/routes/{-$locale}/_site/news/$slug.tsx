import { createFileRoute, redirect } from '@tanstack/react-router'
import { fetchNewsPost } from '~/features/news/news.functions'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/news/$slug')({
  loader: async ({ params }) => {
    const post = await fetchNewsPost({ data: { slug: params.slug } })
    if (!post) throw redirect({ to: '/{-$locale}', params: { locale: params.locale }, replace: true })
    return post
  },
  head: (ctx) =>
    pageHead(ctx, {
      title: ctx.loaderData?.title ?? '',
      description: ctx.loaderData?.excerpt ?? '',
      type: 'article',
      image: ctx.loaderData?.cover.webp,
    }),
  component: NewsDetail,
})

function NewsDetail() {
  const post = Route.useLoaderData()
  return (
    <article className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-4xl font-semibold tracking-tight">{post.title}</h1>
      <div className="prose mt-8" dangerouslySetInnerHTML={{ __html: post.html }} />
    </article>
  )
}
