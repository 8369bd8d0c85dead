import { createFileRoute, redirect } from '@tanstack/react-router'
import { getModel } from '#content/models'
import { pageMeta } from '~/features/marketing/page-meta'
import { PlaceholderPage } from '~/features/marketing/placeholder-page'
import { pageHead } from '~/lib/seo'

/** Spec §2: model-detail is the models page, focused on one model. */
export const Route = createFileRoute('/{-$locale}/_site/models/$slug')({
  beforeLoad: ({ params }) => {
    if (!getModel(params.slug)) throw redirect({ to: '/{-$locale}', params: { locale: params.locale }, replace: true })
  },
  head: (ctx) => {
    const model = getModel(ctx.params.slug)
    return pageHead(ctx, { title: model?.name ?? pageMeta.models.title, description: model?.description ?? pageMeta.models.description })
  },
  component: () => <PlaceholderPage page="models" />,
})
