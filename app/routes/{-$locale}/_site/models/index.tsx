import { createFileRoute } from '@tanstack/react-router'
import { papers } from '#content/papers'
import { paperJsonLd } from '~/features/marketing/json-ld'
import { ModelsPage } from '~/features/marketing/models/models-page'
import { modelsSearchSchema } from '~/features/marketing/models/search'
import { pageMeta } from '~/features/marketing/page-meta'
import { pageHead, rootData } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/models/')({
  validateSearch: modelsSearchSchema,
  head: (ctx) => {
    const { baseUrl } = rootData(ctx.matches)
    return pageHead(ctx, { ...pageMeta.models, jsonLd: papers.map((paper) => paperJsonLd(paper, baseUrl)) })
  },
  component: Models,
})

function Models() {
  const { tag } = Route.useSearch()
  return <ModelsPage tag={tag} />
}
