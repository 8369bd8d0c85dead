import { batchLimits } from '~/contracts/batches'
import { bulkLimits } from '~/contracts/bulk'
import { readerLimits } from '~/contracts/reader'
import { searchLimits } from '~/contracts/search'
import { errorResponse, HttpError } from './errors'

/** Every JSON or form body the dashboard API takes fits in 64 KB; anything longer is refused, not read. */
export const MAX_BODY_BYTES = 64 * 1024
/** The search APIs take up to 2,048 texts a request (api-contracts.md); documented as their body limit. */
export const SEARCH_API_BODY_BYTES = searchLimits.maxBodyBytes

export interface BodyLimit {
  bytes: number
  /**
   * `buffered`: the request middleware reads the body up to `bytes` before any handler runs, so neither a
   * route nor Start's server-function handler ever sees more. `streamed`: the middleware leaves the body
   * alone and the route reads it through `limitedBody` with its own cap, e.g. multipart uploads of bulk
   * embeddings, which are too large to hold in memory and are written on as they arrive.
   */
  read: 'buffered' | 'streamed'
}

/** A bulk-embedding upload: the file and a few form fields around it. */
export const BULK_UPLOAD_BYTES = bulkLimits.maxFileBytes + 64 * 1024

/** A file for the Batch API (/v1/files): the file and its `purpose` field. */
export const FILE_UPLOAD_BYTES = batchLimits.maxFileBytes + 64 * 1024

/** POST /r may carry a page or PDF of up to the reader's page limit, base64-encoded (4/3 of it) with a little around it. */
export const READER_BODY_BYTES = Math.ceil((readerLimits.maxPageBytes * 4) / 3) + 64 * 1024

/**
 * The limit a request's body is held to: bulk uploads are streamed to storage under their own limit, the
 * search APIs under /v1 take 4 MiB, POST /r a page's worth (13.4 MiB), and everything else 64 KB.
 */
export function bodyLimitFor(pathname: string): BodyLimit {
  if (pathname === '/v1/bulk-embeddings' || pathname === '/v1/bulk-embeddings/')
    return { bytes: BULK_UPLOAD_BYTES, read: 'streamed' }
  if (pathname === '/v1/files' || pathname === '/v1/files/') return { bytes: FILE_UPLOAD_BYTES, read: 'streamed' }
  if (pathname === '/r' || pathname === '/r/') return { bytes: READER_BODY_BYTES, read: 'buffered' }
  return { bytes: pathname.startsWith('/v1/') ? SEARCH_API_BODY_BYTES : MAX_BODY_BYTES, read: 'buffered' }
}

const tooLarge = () => new HttpError(413, 'Request body too large')

/** The body passed through as it comes, failing with a 413 once it passes `bytes` (declared or counted). */
export function limitedBody(request: Request, bytes: number): ReadableStream<Uint8Array> | null {
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > bytes) throw tooLarge()
  if (!request.body) return null
  let seen = 0
  return request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength
        // Erroring the pipe cancels the request's stream: the rest is never pulled from the socket.
        if (seen > bytes) controller.error(tooLarge())
        else controller.enqueue(chunk)
      },
    }),
  )
}

/** The whole body, at most `bytes` of it: a longer one is refused with 413 after reading just past the limit. */
export async function readLimited(request: Request, bytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const body = limitedBody(request, bytes)
  if (!body) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks.push(value)
      size += value.byteLength
    }
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw new HttpError(400, 'Request body could not be read', { cause: error })
  }
  const all = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.byteLength
  }
  return all
}

/**
 * The request middleware's check, before any handler runs (server functions included): a 413 answer when
 * a buffered route's body is over its limit. It reads a clone, so the handler still gets the body it was
 * sent (at most `bytes` of it held in memory); the answer closes the connection, so the rest of an
 * oversized body is never read.
 */
export async function oversizedBodyAnswer(request: Request, pathname: string): Promise<Response | undefined> {
  if (request.method === 'GET' || request.method === 'HEAD' || !request.body) return undefined
  const limit = bodyLimitFor(pathname)
  if (limit.read === 'streamed') return undefined
  try {
    await readLimited(request.clone(), limit.bytes)
    return undefined
  } catch (error) {
    const answer = errorResponse(error)
    answer.headers.set('connection', 'close')
    return answer
  }
}
