import type { DeepSearchBody } from '~/contracts/deepsearch'
import type { Caller } from '../api/caller'
import { prepareDeepSearch } from '../api/deepsearch/run'
import { publicAnswer } from './errors'
import { eventStreamResponse } from './event-stream'

/**
 * Deep search answered as the request asks: streamed chunks (`data: {chunk}` events, then `data: [DONE]`)
 * or one completion. Refusals found before the run starts (key, limit, balance) are plain HTTP answers; a
 * failure during a stream becomes a chunk of `type: "error"` ("status: detail"), since its 200 is sent.
 */
export async function deepSearchAnswer(caller: Caller, body: DeepSearchBody) {
  const prepared = await prepareDeepSearch(caller, body)
  const { request } = caller
  if (!body.stream) {
    const { content, citations, totals } = await prepared.run(() => undefined, {
      signal: request.signal,
      streaming: false,
    })
    return prepared.chunks.completion(content, citations, totals)
  }
  return eventStreamResponse(
    async (sink) => {
      try {
        await prepared.run((chunk) => sink.send({ data: JSON.stringify(chunk) }), {
          signal: sink.signal,
          streaming: true,
        })
      } catch (error) {
        if (sink.signal.aborted) return
        const { status, detail } = publicAnswer(error)
        const message = `${status}: ${typeof detail === 'string' ? detail : detail.map((issue) => issue.msg).join('; ')}`
        sink.send({ data: JSON.stringify(prepared.chunks.error(message)) })
      }
      sink.send({ data: '[DONE]' })
    },
    () => undefined,
    { signal: request.signal },
  )
}
