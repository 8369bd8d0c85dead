import { ApiError, fromResponse } from '../api-error'
import { notJsonObject, unwrap } from './unwrap'
import { readEvents, type StreamEvent } from './parse'

/** What a call answered, by its content type (spec §7's `request`). */
export type CallAnswer =
  | { kind: 'events'; events: AsyncGenerator<StreamEvent>; response: Response }
  | { kind: 'json'; data: unknown; response: Response }
  | { kind: 'blob'; data: Blob; response: Response }
  | { kind: 'bytes'; data: ArrayBuffer; response: Response }

export interface CallInit {
  method?: string
  headers?: Record<string, string>
  body?: string
  /** The caller's API key, sent as a bearer token. */
  apiKey?: string | null
  signal?: AbortSignal
}

/**
 * Calls an endpoint and reads its answer by content type: an event stream is yielded as parsed events as
 * they arrive, JSON is unwrapped, images come as a blob, audio as bytes, anything else is read as JSON. A
 * refused call throws an ApiError ("status: detail", with the spec §8 code of its status, and a network
 * failure as status 0); an abort stays an AbortError.
 */
export async function request(url: string, init: CallInit = {}): Promise<CallAnswer> {
  const headers: Record<string, string> = { ...init.headers }
  if (init.apiKey) headers.Authorization = `Bearer ${init.apiKey}`
  let response: Response
  try {
    response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body, signal: init.signal })
  } catch (error) {
    if (init.signal?.aborted) throw error
    throw new ApiError(0, error instanceof Error ? error.message : 'Network error')
  }
  if (!response.ok) throw await fromResponse(response)
  const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()
  if (type === 'text/event-stream') {
    if (!response.body) throw new ApiError(response.status, 'Response has no body.', { code: 'internal' })
    return { kind: 'events', events: readEvents(response.body), response }
  }
  if (type.startsWith('image/')) return { kind: 'blob', data: await response.blob(), response }
  if (type.startsWith('audio/')) return { kind: 'bytes', data: await response.arrayBuffer(), response }
  let body: unknown
  try {
    body = JSON.parse(await response.text())
  } catch {
    throw new ApiError(response.status, notJsonObject, { code: 'internal' })
  }
  return { kind: 'json', data: unwrap(body, response.status), response }
}

/**
 * The events of a call that must answer with a stream; an `error` event (the reader's way to fail after
 * its 200 was sent, `{code, detail}`) is thrown as the ApiError it stands for.
 */
export async function* streamEvents(url: string, init: CallInit): AsyncGenerator<StreamEvent> {
  const answer = await request(url, { ...init, headers: { Accept: 'text/event-stream', ...init.headers } })
  if (answer.kind !== 'events')
    throw new ApiError(answer.response.status, 'Response is not an event stream.', { code: 'internal' })
  for await (const event of answer.events) {
    if (event.event === 'error') throw errorEvent(event.data)
    yield event
  }
}

function errorEvent(data: string): ApiError {
  try {
    const body = JSON.parse(data) as { code?: unknown; detail?: unknown }
    const status = typeof body.code === 'number' ? body.code : 500
    return new ApiError(status, typeof body.detail === 'string' ? body.detail : JSON.stringify(body.detail ?? data))
  } catch {
    return new ApiError(500, data)
  }
}
