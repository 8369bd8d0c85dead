import { createFileRoute } from '@tanstack/react-router'
import { readerAnswer as readerJson, readerBody, readerHeaders } from '~/contracts/reader'
import { endpoint } from '~/server/http/endpoint'
import { readerAnswer, readerSpec } from '~/server/http/reader-answers'

export const Route = createFileRoute('/r/')({
  server: {
    handlers: {
      POST: endpoint(
        {
          ...readerSpec,
          summary: 'Read a page named in the body',
          headers: readerHeaders,
          json: readerBody,
          example: { url: 'https://example.com/' },
          answer: readerJson,
          errors: [...readerSpec.errors, 413, 415],
        },
        ({ caller, headers, json }) => readerAnswer(caller, { target: json.url, headers }),
      ),
    },
  },
})
