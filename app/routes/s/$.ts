import { createFileRoute } from '@tanstack/react-router'
import { searchAnswer as searchJson, searchQuery } from '~/contracts/web-search'
import { endpoint } from '~/server/http/endpoint'
import { queryOfPath, searchAnswer, searchCallOf, searchSpec } from '~/server/http/search-answers'

export const Route = createFileRoute('/s/$')({
  server: {
    handlers: {
      GET: endpoint(
        {
          ...searchSpec,
          summary: 'Search the web and read the top results',
          splat: {
            name: 'query',
            description: 'What to search for, written after `/s/` (`+` or `%20` between words)',
          },
          query: searchQuery,
          answer: searchJson,
        },
        ({ request, caller, query, headers }) =>
          searchAnswer(request, caller, searchCallOf(query, headers, queryOfPath(request))),
      ),
    },
  },
})
