import { msg } from '@lingui/core/macro'
import { createFileRoute } from '@tanstack/react-router'
import { ApiReferencePage } from '~/features/api-reference/api-reference-page'
import { fetchOpenApiDocument } from '~/features/api-reference/api-reference.functions'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/_site/api-reference')({
  loader: () => fetchOpenApiDocument(),
  head: (ctx) =>
    pageHead(ctx, {
      title: msg`API reference`,
      description: msg`Endpoints, parameters, request and response schemas, errors and curl examples for the API key, billing, model and product API.`,
    }),
  component: () => <ApiReferencePage document={Route.useLoaderData()} />,
})
