import busboy from 'busboy'
import { Readable } from 'node:stream'
import type { ReadableStream as NodeWebStream } from 'node:stream/web'
import { InvalidInput, UploadTooLarge } from '../domain/refusals'
import { HttpError } from './errors'

export interface UploadedFile {
  fileName: string
  mediaType: string
  /** The file's bytes as they arrive; fails with `UploadTooLarge` past the limit. */
  body: AsyncIterable<Uint8Array>
  /**
   * Aborted the moment the upload fails (the client went away, a limit was passed): what the handler still
   * holds in buffers must not keep it working for nobody, so it checks this as it goes.
   */
  signal: AbortSignal
}

export interface UploadLimits {
  /** The form field that carries the file; any other file field is refused. */
  fileField: string
  maxFileBytes: number
}

const malformed = (msg: string) => new InvalidInput([{ loc: ['body'], msg, type: 'multipart' }])

/**
 * Reads a multipart/form-data body as it streams in (busboy): the one file goes to `handle` chunk by chunk
 * and is never held whole (with the fields sent before it), other fields are collected (they may come before
 * or after the file). The body
 * stops being read as soon as `handle` fails or the file passes its limit.
 */
export async function readUpload<T>(
  body: ReadableStream<Uint8Array>,
  contentType: string | null,
  limits: UploadLimits,
  handle: (file: UploadedFile, fieldsSoFar: Record<string, string>) => Promise<T>,
): Promise<{ fields: Record<string, string>; file: T | undefined }> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data'))
    throw malformed('must be multipart/form-data with a file field')
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: { files: 1, fields: 20, fieldSize: 16 * 1024, parts: 21, fileSize: limits.maxFileBytes },
    })
  } catch {
    throw malformed('must be multipart/form-data with a boundary')
  }
  const source = Readable.fromWeb(body as NodeWebStream<Uint8Array>)
  const fields: Record<string, string> = {}
  let handled: Promise<T> | undefined
  let fileStream: Readable | undefined
  const failed = new AbortController()

  return new Promise((resolve, reject) => {
    let settled = false
    // Stops reading, ends the file's stream with the error, and answers once the handler has let go of it,
    // so whatever it wrote is finished (or removed) before the caller cleans up.
    const fail = (error: unknown) => {
      if (settled) return
      settled = true
      failed.abort(error)
      source.unpipe(parser)
      source.destroy()
      fileStream?.destroy()
      void Promise.resolve(handled)
        .catch(() => undefined)
        .finally(() => reject(error))
    }
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated)
        return fail(new InvalidInput([{ loc: ['body', name], msg: 'is too long', type: 'too_long' }]))
      fields[name] = value
    })
    parser.on('file', (name, stream, info) => {
      if (name !== limits.fileField || handled) {
        stream.resume()
        return fail(
          new InvalidInput([
            {
              loc: ['body', name],
              msg: `only one file, in the ${limits.fileField} field, is taken`,
              type: 'unexpected',
            },
          ]),
        )
      }
      fileStream = stream
      stream.once('limit', () => stream.destroy(new UploadTooLarge(limits.maxFileBytes)))
      const file = {
        fileName: info.filename ?? '',
        mediaType: info.mimeType ?? '',
        body: stream,
        signal: failed.signal,
      }
      // A handler that refuses the fields before reading the file throws at once: a rejection all the same.
      handled = Promise.resolve({ ...fields }).then((early) => handle(file, early))
      handled.catch(fail)
    })
    parser.on('filesLimit', () => fail(malformed('must hold one file')))
    parser.on('fieldsLimit', () => fail(malformed('has too many fields')))
    parser.on('partsLimit', () => fail(malformed('has too many parts')))
    parser.on('error', (error) =>
      fail(error instanceof UploadTooLarge ? error : malformed('is not a well-formed multipart/form-data body')),
    )
    parser.on('close', () => {
      if (settled) return
      Promise.resolve(handled).then((file) => {
        if (settled) return
        settled = true
        resolve({ fields, file })
      }, fail)
    })
    // The whole body passing its limit is the file being too large, said in the file's words. Any other
    // failure of the body is the client going away mid-upload (Node names it ECONNRESET, which must not
    // read as the database being down): a 400 nobody may be left to read, after the file is let go of.
    source.on('error', (error) =>
      fail(
        error instanceof HttpError && error.status === 413
          ? new UploadTooLarge(limits.maxFileBytes)
          : new HttpError(400, 'The request body ended before the upload was complete'),
      ),
    )
    source.pipe(parser)
  })
}
