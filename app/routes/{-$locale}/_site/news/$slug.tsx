import { createFileRoute, redirect } from '@tanstack/react-router'
import { newsArticleJsonLd } from '~/features/marketing/json-ld'
import { NewsDetail } from '~/features/news/news-detail'
import { fetchNewsPost } from '~/features/news/news.functions'
import { pageHead, rootData } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/news/$slug')({
  loader: async ({ params }) => {
    const post = await fetchNewsPost({ data: { slug: params.slug } })
    if (!post) throw redirect({ to: '/{-$locale}', params: { locale: params.locale }, replace: true })
    return post
  },
  head: (ctx) => {
    const post = ctx.loaderData
    const { baseUrl } = rootData(ctx.matches)
    return pageHead(ctx, {
      title: post?.title ?? '',
      description: post?.excerpt ?? '',
      type: 'article',
      image: post?.cover.webp,
      jsonLd: post ? newsArticleJsonLd(post, new URL(ctx.match.pathname, baseUrl).toString(), baseUrl) : undefined,
    })
  },
  component: () => <NewsDetail post={Route.useLoaderData()} />,
})
