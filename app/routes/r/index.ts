import { createFileRoute } from '@tanstack/react-router'
import { readerAnswer as readerJson, readerBody, readerHeaders } from '~/contracts/reader'
import { givenOf } from '~/server/api/reader/given-page'
import { endpoint } from '~/server/http/endpoint'
import { readerAnswer, readerSpec } from '~/server/http/reader-answers'

export const Route = createFileRoute('/r/')({
  server: {
    handlers: {
      POST: endpoint(
        {
          ...readerSpec,
          summary: 'Read a page named in the body, or the HTML or PDF the body carries',
          headers: readerHeaders,
          json: readerBody,
          jsonOrForm: true,
          example: { url: 'https://example.com/' },
          answer: readerJson,
          errors: [...readerSpec.errors, 413, 415],
        },
        ({ caller, headers, json }) =>
          readerAnswer(caller, {
            target: json.url ?? '',
            headers,
            given: givenOf(json),
            body: { viewport: json.viewport, injectPageScript: json.injectPageScript },
          }),
      ),
    },
  },
})
