import type { ReaderBody } from '~/contracts/reader'
import type { GivenPage } from '~/server/providers/reader/read-page'

export type { GivenPage }

const bytesOf = (base64: string) => Buffer.from(base64.replace(/^data:[^,]*,/, ''), 'base64')

/** The page the body carries, if it carries one: HTML as text, a PDF (or an uploaded file that is one) as bytes. */
export function givenOf(body: ReaderBody): GivenPage | undefined {
  if (body.html !== undefined) return { html: body.html }
  if (body.pdf !== undefined) return { pdf: bytesOf(body.pdf) }
  if (body.file !== undefined) {
    const bytes = bytesOf(body.file)
    return bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? { pdf: bytes } : { html: bytes.toString('utf8') }
  }
  return undefined
}
