/**
 * Server-sent events as spec §7 reads them: each event's lines (`event:`, `id:`, one `data:` line per line
 * of its data), then a blank line. Used by every streaming answer (the reader's snapshots, deep search).
 */
export interface ServerEvent {
  event?: string
  id?: string
  data: string
}

export function formatEvent({ event, id, data }: ServerEvent): string {
  let text = ''
  if (event) text += `event: ${event}\n`
  if (id) text += `id: ${id}\n`
  for (const line of data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`
  return `${text}\n`
}

export interface EventSink {
  send(event: ServerEvent): void
  /** Aborted when the caller stops reading (it disconnected or cancelled). */
  signal: AbortSignal
}

const encoder = new TextEncoder()

/**
 * A 200 event-stream answer written by `produce`. What it throws after the answer started becomes the
 * last event (`failure`), since the status is already sent; the stream closes when `produce` is done.
 * Never compressed or buffered on the way (`X-Accel-Buffering: no` for proxies), so each event leaves as
 * it is written.
 */
export function eventStreamResponse(
  produce: (sink: EventSink) => Promise<void>,
  failure: (error: unknown) => ServerEvent | undefined,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Response {
  const stopped = new AbortController()
  const signal = options.signal ? AbortSignal.any([stopped.signal, options.signal]) : stopped.signal
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let open = true
      const sink: EventSink = {
        signal,
        send(event) {
          if (open && !signal.aborted) controller.enqueue(encoder.encode(formatEvent(event)))
        },
      }
      const close = () => {
        if (!open) return
        open = false
        try {
          controller.close()
        } catch {
          // Already cancelled by the reader.
        }
      }
      // A comment first: the server sends the status and headers with the first bytes, and a slow first
      // event (a page still downloading) must not keep the caller waiting for them.
      controller.enqueue(encoder.encode(': stream open\n\n'))
      produce(sink)
        .catch((error: unknown) => {
          const last = signal.aborted ? undefined : failure(error)
          if (last) sink.send(last)
        })
        .finally(close)
    },
    cancel() {
      stopped.abort()
    },
  })
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      ...options.headers,
    },
  })
}
