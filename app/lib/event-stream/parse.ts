/**
 * Reads a `text/event-stream` body as spec §7 says the original client does: events are separated by blank
 * lines, each line is split at its first colon into a field and a value (one space after the colon is not
 * part of the value), and several `data` lines of one event are joined with newlines. A line starting with
 * a colon is a comment. Shared by every streaming call (the reader's snapshots, deep search's chunks).
 */
export interface StreamEvent {
  /** The `event:` field; `message` when the event names none. */
  event: string
  data: string
  id?: string
}

/** One event's lines as an event, or undefined when it carried no data (a comment or keep-alive). */
export function eventOf(lines: string[]): StreamEvent | undefined {
  const data: string[] = []
  let event = 'message'
  let id: string | undefined
  for (const line of lines) {
    if (line === '' || line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon < 0 ? line : line.slice(0, colon)
    let value = colon < 0 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') data.push(value)
    else if (field === 'event') event = value
    else if (field === 'id') id = value
  }
  return data.length ? { event, data: data.join('\n'), ...(id !== undefined && { id }) } : undefined
}

/** The events of a stream as they arrive; the last one counts even without its closing blank line. */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  let lines: string[] = []
  let finished = false
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) {
        finished = true
        buffer += decoder.decode()
        break
      }
      buffer += decoder.decode(value, { stream: true })
      // A CR at the end of a chunk may be the first half of a CRLF: wait for the next chunk to see.
      const cut = buffer.endsWith('\r') ? buffer.length - 1 : buffer.length
      const complete = buffer.slice(0, cut).split(/\r\n|\r|\n/)
      buffer = complete.pop()! + buffer.slice(cut)
      for (const line of complete) {
        if (line !== '') {
          lines.push(line)
          continue
        }
        const event = eventOf(lines)
        lines = []
        if (event) yield event
      }
    }
    if (buffer) lines.push(buffer)
    const last = eventOf(lines)
    if (last) yield last
  } finally {
    // A consumer that stopped early (or was aborted) closes the stream, so the server stops sending.
    if (!finished) await reader.cancel().catch(() => undefined)
    reader.releaseLock()
  }
}
