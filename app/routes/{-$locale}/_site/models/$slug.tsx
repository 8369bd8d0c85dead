import { createFileRoute, redirect } from '@tanstack/react-router'
import { getModel } from '#content/models'
import { papersForModel } from '#content/papers'
import { paperJsonLd } from '~/features/marketing/json-ld'
import { ModelsPage } from '~/features/marketing/models/models-page'
import { modelsSearchSchema } from '~/features/marketing/models/search'
import { pageMeta } from '~/features/marketing/page-meta'
import { fetchNewsList } from '~/features/news/news.functions'
import { pageHead, rootData } from '~/lib/seo'

/** Spec §2: model-detail is the models page, focused on one model. */
export const Route = createFileRoute('/{-$locale}/_site/models/$slug')({
  validateSearch: modelsSearchSchema,
  beforeLoad: ({ params }) => {
    if (!getModel(params.slug)) throw redirect({ to: '/{-$locale}', params: { locale: params.locale }, replace: true })
  },
  loader: () => fetchNewsList(),
  head: (ctx) => {
    const model = getModel(ctx.params.slug)
    const { baseUrl } = rootData(ctx.matches)
    return pageHead(ctx, {
      title: model?.name ?? pageMeta.models.title,
      description: model?.description ?? pageMeta.models.description,
      image: model?.image,
      jsonLd: model ? papersForModel(model.slug).map((paper) => paperJsonLd(paper, baseUrl)) : undefined,
    })
  },
  component: ModelDetailRoute,
})

function ModelDetailRoute() {
  const { slug } = Route.useParams()
  const { tag } = Route.useSearch()
  return <ModelsPage tag={tag} focused={getModel(slug)} news={Route.useLoaderData()} />
}
