import { createFileRoute } from '@tanstack/react-router'
import { readerAnswer as readerJson, readerHeaders } from '~/contracts/reader'
import { endpoint } from '~/server/http/endpoint'
import { readerAnswer, readerSpec, targetOfPath } from '~/server/http/reader-answers'

export const Route = createFileRoute('/r/$')({
  server: {
    handlers: {
      GET: endpoint(
        {
          ...readerSpec,
          summary: 'Read a page as Markdown, HTML, text or JSON',
          splat: {
            name: 'url',
            description: 'The page to read, written out after `/r/` with its own query (`https://example.com/a?b=1`)',
          },
          headers: readerHeaders,
          answer: readerJson,
        },
        ({ request, caller, headers }) => readerAnswer(request, caller, { target: targetOfPath(request), headers }),
      ),
    },
  },
})
