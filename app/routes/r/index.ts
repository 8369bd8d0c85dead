import { createFileRoute } from '@tanstack/react-router'
import { readerAnswer as readerJson, readerBody, readerHeaders } from '~/contracts/reader'
import { givenOf } from '~/server/api/reader/given-page'
import { endpoint } from '~/server/http/endpoint'
import { headersWithBody, readerAnswer, readerSpec } from '~/server/http/reader-answers'

export const Route = createFileRoute('/r/')({
  server: {
    handlers: {
      POST: endpoint(
        {
          ...readerSpec,
          idempotent: true,
          summary: 'Read a page named in the body, or the HTML or PDF the body carries',
          headers: readerHeaders,
          json: readerBody,
          jsonOrForm: true,
          example: { url: 'https://example.com/' },
          answer: readerJson,
          errors: [...readerSpec.errors, 413, 415],
        },
        ({ request, caller, json }) =>
          readerAnswer(request, caller, {
            target: json.url ?? '',
            // The original's camelCase body options (`respondWith`, `targetSelector`, …) beside the headers.
            headers: headersWithBody(request, json),
            given: givenOf(json),
            body: { viewport: json.viewport, injectPageScript: json.injectPageScript },
          }),
      ),
    },
  },
})
