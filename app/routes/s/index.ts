import { createFileRoute } from '@tanstack/react-router'
import { searchAnswer as searchJson, searchBody, searchHeaders, searchQuery } from '~/contracts/web-search'
import { endpoint } from '~/server/http/endpoint'
import { headersWithBody } from '~/server/http/reader-answers'
import { searchAnswer, searchCallOf, searchSpec } from '~/server/http/search-answers'

export const Route = createFileRoute('/s/')({
  server: {
    handlers: {
      GET: endpoint(
        {
          ...searchSpec,
          summary: 'Search the web for `q` and read the top results',
          query: searchQuery,
          answer: searchJson,
        },
        ({ request, caller, query, headers }) => searchAnswer(request, caller, searchCallOf(query, headers)),
      ),
      POST: endpoint(
        {
          ...searchSpec,
          idempotent: true,
          summary: 'Search the web for the body’s `q` and read the top results',
          json: searchBody,
          jsonOrForm: true,
          example: { q: 'reranker', count: 3 },
          answer: searchJson,
          errors: [...searchSpec.errors, 413, 415],
        },
        ({ request, caller, json }) =>
          // The reader's camelCase body options (`respondWith`, `retainImages`, …) beside the headers.
          searchAnswer(request, caller, searchCallOf(json, headersWithBody(request, json, searchHeaders))),
      ),
    },
  },
})
