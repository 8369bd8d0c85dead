import type { RequestLogRecord } from '../api/request-log/record'

/**
 * Closes the request's log row with its answer. A JSON or text answer is complete here; a stream is charged
 * as it goes, so its row is closed when its body ends, however it ends (done, failed, or the client gone).
 */
export function withRequestLogged(response: Response, record: RequestLogRecord): Response | Promise<Response> {
  const engine = response.headers.get('x-engine')
  const streamed = response.body && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')
  if (!streamed) {
    const written = record.close(response.status, engine)
    return written ? written.then(() => response) : response
  }
  const reader = response.body!.getReader()
  let ended = false
  const end = async () => {
    if (ended) return
    ended = true
    await record.close(response.status, engine)
  }
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (!done) return controller.enqueue(value)
        await end()
        controller.close()
      } catch (error) {
        await end()
        controller.error(error)
      }
    },
    async cancel(reason) {
      await end()
      await reader.cancel(reason)
    },
  })
  return new Response(body, response)
}
