import { deepSearchFields, modelChatOptions, type DeepSearchBody } from '~/contracts/deepsearch'
import type { Caller } from '../api/caller'
import { prepareDeepSearch } from '../api/deepsearch/run'
import { serverEnv } from '../env'
import { jsonResponse, publicAnswer } from './errors'
import { eventStreamResponse } from './event-stream'

/**
 * Options deep search accepts and does not apply, named in `X-Options-Not-Applied`: OpenAI's sampling options
 * and end-user id on the built-in engine (it answers extractively; the upstream one forwards them to its
 * model), stream options on an answer that is not streamed, and any field this server does not know.
 */
function notApplied(body: DeepSearchBody, engine: 'builtin' | 'upstream'): string[] {
  const known: readonly string[] = deepSearchFields
  const given = (field: keyof DeepSearchBody) => body[field] !== undefined && body[field] !== null
  return [
    ...(engine === 'builtin' ? modelChatOptions.filter(given) : []),
    ...(!body.stream && given('stream_options') ? ['stream_options'] : []),
    ...Object.keys(body).filter((field) => !known.includes(field)),
  ]
}

function chatHeaders(body: DeepSearchBody): Record<string, string> {
  const engine = serverEnv().DEEPSEARCH_ENGINE
  const skipped = notApplied(body, engine)
  return {
    'x-engine': `deepsearch:${engine}`,
    ...(skipped.length > 0 && { 'x-options-not-applied': skipped.join(', ') }),
  }
}

/**
 * Deep search answered as the request asks: streamed chunks (`data: {chunk}` events, then `data: [DONE]`)
 * or one completion. Refusals found before the run starts (key, limit, balance) are plain HTTP answers; a
 * failure during a stream becomes a chunk of `type: "error"` ("status: detail"), since its 200 is sent.
 */
export async function deepSearchAnswer(caller: Caller, body: DeepSearchBody) {
  const prepared = await prepareDeepSearch(caller, body)
  const { request } = caller
  if (!body.stream) {
    const { content, citations, totals, finish } = await prepared.run(() => undefined, {
      signal: request.signal,
      streaming: false,
    })
    return jsonResponse(prepared.chunks.completion(content, citations, totals, finish), { headers: chatHeaders(body) })
  }
  return eventStreamResponse(
    async (sink) => {
      try {
        const { totals } = await prepared.run((chunk) => sink.send({ data: JSON.stringify(chunk) }), {
          signal: sink.signal,
          streaming: true,
        })
        if (body.stream_options?.include_usage) sink.send({ data: JSON.stringify(prepared.chunks.usage(totals.usage)) })
      } catch (error) {
        if (sink.signal.aborted) return
        const { status, detail } = publicAnswer(error)
        const message = `${status}: ${typeof detail === 'string' ? detail : detail.map((issue) => issue.msg).join('; ')}`
        sink.send({ data: JSON.stringify(prepared.chunks.error(message)) })
      }
      sink.send({ data: '[DONE]' })
    },
    () => undefined,
    { signal: request.signal, headers: chatHeaders(body) },
  )
}
