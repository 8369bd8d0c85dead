import { createFileRoute } from '@tanstack/react-router'
import { readerAnswer as readerJson, readerBody, readerHeaders, type ReaderBody } from '~/contracts/reader'
import type { GivenPage } from '~/server/providers/reader/read-page'
import { endpoint } from '~/server/http/endpoint'
import { readerAnswer, readerSpec } from '~/server/http/reader-answers'

const bytesOf = (base64: string) => Buffer.from(base64.replace(/^data:[^,]*,/, ''), 'base64')

/** The page the body carries, if it carries one: HTML as text, a PDF (or an uploaded file that is one) as bytes. */
function givenOf(body: ReaderBody): GivenPage | undefined {
  if (body.html !== undefined) return { html: body.html }
  if (body.pdf !== undefined) return { pdf: bytesOf(body.pdf) }
  if (body.file !== undefined) {
    const bytes = bytesOf(body.file)
    return bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? { pdf: bytes } : { html: bytes.toString('utf8') }
  }
  return undefined
}

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
