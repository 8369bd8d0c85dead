import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '~/lib/api-error'
import { eventOf, readEvents } from '~/lib/event-stream/parse'
import { request, streamEvents } from '~/lib/event-stream/request'
import { callableData, missingData, notJsonObject, unwrap } from '~/lib/event-stream/unwrap'

/** A body that arrives in exactly these pieces, as a network would cut it. */
const body = (...pieces: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece))
      controller.close()
    },
  })

const collect = async (stream: ReadableStream<Uint8Array>) => {
  const events = []
  for await (const event of readEvents(stream)) events.push(event)
  return events
}

describe('reading an event stream (spec §7)', () => {
  it('separates events at blank lines and joins several data lines with newlines', async () => {
    expect(await collect(body('event: data\ndata: first\ndata: second\n\ndata: {"a":1}\n\n'))).toEqual([
      { event: 'data', data: 'first\nsecond' },
      { event: 'message', data: '{"a":1}' },
    ])
  })

  it('splits each line at its first colon only, dropping one space after it', async () => {
    expect(eventOf(['data: a: b: c', 'id:7', 'data:  two spaces'])).toEqual({
      event: 'message',
      data: 'a: b: c\n two spaces',
      id: '7',
    })
  })

  it('reads events cut anywhere by the network, CRLF and CR line ends included', async () => {
    const text = 'event: data\r\ndata: ü-one\r\n\r\ndata: two\r\rdata: three\n\n'
    const bytes = new TextEncoder().encode(text)
    // Every cut, even inside the two bytes of ü and between CR and LF.
    for (let cut = 1; cut < bytes.length; cut++) {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, cut))
          controller.enqueue(bytes.slice(cut))
          controller.close()
        },
      })
      expect(await collect(stream)).toEqual([
        { event: 'data', data: 'ü-one' },
        { event: 'message', data: 'two' },
        { event: 'message', data: 'three' },
      ])
    }
  })

  it('skips comments and events without data, and keeps a last event that lost its blank line', async () => {
    expect(await collect(body(': keep-alive\n\nevent: ping\n\ndata: last'))).toEqual([
      { event: 'message', data: 'last' },
    ])
  })
})

describe('unwrapping an answer (spec §7)', () => {
  it('takes `result` as the data, throws `error`, and returns a body without a numeric code as it is', () => {
    expect(unwrap({ result: { ok: 1 } })).toEqual({ ok: 1 })
    expect(() => unwrap({ error: { code: 429, message: 'slow down' } })).toThrow('429: slow down')
    expect(unwrap({ title: 'x' })).toEqual({ title: 'x' })
  })

  it('returns a body whose code is 2xx and throws any other code', () => {
    const reader = { code: 200, status: 20000, data: { title: 'x' } }
    expect(unwrap(reader)).toBe(reader)
    const thrown = (() => {
      try {
        unwrap({ code: 422, detail: 'bad' })
      } catch (error) {
        return error as ApiError
      }
    })()
    expect(thrown).toMatchObject({ status: 422, code: 'unknown', message: '422: bad' })
  })

  it('calls a malformed answer internal, in the spec’s words', () => {
    expect(() => unwrap('text')).toThrow(notJsonObject)
    expect(() => callableData({ other: 1 })).toThrow(missingData)
    try {
      callableData([])
    } catch (error) {
      expect((error as ApiError).code).toBe('internal')
    }
    expect(callableData({ data: 5 })).toBe(5)
  })
})

describe('calling with the shared client', () => {
  afterEach(() => vi.unstubAllGlobals())
  const answer = (text: string, status: number, type: string, headers: Record<string, string> = {}) =>
    vi.stubGlobal('fetch', async () => new Response(text, { status, headers: { 'content-type': type, ...headers } }))

  it('maps a refused call’s status to the spec §8 code, keeping its detail and Retry-After', async () => {
    for (const [status, code] of [
      [400, 'invalid-argument'],
      [401, 'unauthenticated'],
      [403, 'permission-denied'],
      [404, 'not-found'],
      [409, 'aborted'],
      [429, 'resource-exhausted'],
      [499, 'cancelled'],
      [500, 'internal'],
      [501, 'unimplemented'],
      [503, 'unavailable'],
      [504, 'deadline-exceeded'],
      [402, 'unknown'],
    ] as const) {
      answer(JSON.stringify({ detail: 'why' }), status, 'application/json', { 'retry-after': '7' })
      await expect(request('/x')).rejects.toMatchObject({ status, code, message: `${status}: why`, retryAfter: '7' })
    }
  })

  it('calls a network failure status 0, internal, and leaves an abort an abort', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('fetch failed')
    })
    await expect(request('/x')).rejects.toMatchObject({ status: 0, code: 'internal' })
    const abort = new AbortController()
    abort.abort()
    vi.stubGlobal('fetch', async (_: string, init: RequestInit) => init.signal!.throwIfAborted())
    await expect(request('/x', { signal: abort.signal })).rejects.toThrow(/abort/i)
  })

  it('reads answers by content type: events, unwrapped JSON, images and audio', async () => {
    answer('data: 1\n\n', 200, 'text/event-stream; charset=utf-8')
    const events = await request('/x')
    expect(events.kind).toBe('events')
    answer('{"result": 3}', 200, 'application/json')
    expect(await request('/x')).toMatchObject({ kind: 'json', data: 3 })
    answer('png', 200, 'image/png')
    expect((await request('/x')).kind).toBe('blob')
    answer('wav', 200, 'audio/wav')
    expect((await request('/x')).kind).toBe('bytes')
    answer('<html>', 200, 'text/html')
    await expect(request('/x')).rejects.toMatchObject({ code: 'internal', detail: notJsonObject })
  })

  it('sends the key as a bearer token and throws a stream’s error event as its status', async () => {
    const seen: Headers[] = []
    vi.stubGlobal('fetch', async (_: string, init: RequestInit) => {
      seen.push(new Headers(init.headers))
      return new Response(
        'event: data\ndata: {"n":1}\n\nevent: error\ndata: {"code":402,"detail":"Insufficient balance"}\n\n',
        {
          headers: { 'content-type': 'text/event-stream' },
        },
      )
    })
    const got: string[] = []
    await expect(
      (async () => {
        for await (const event of streamEvents('/r', { apiKey: 'lds_k', method: 'POST' })) got.push(event.data)
      })(),
    ).rejects.toMatchObject({ status: 402, message: '402: Insufficient balance' })
    expect(got).toEqual(['{"n":1}'])
    expect(seen[0].get('authorization')).toBe('Bearer lds_k')
    expect(seen[0].get('accept')).toBe('text/event-stream')
  })
})
