import { deepSearchFields, modelChatOptions, type DeepSearchBody, type ReasoningFormat } from '~/contracts/deepsearch'
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
export function notApplied(body: DeepSearchBody, engine: 'builtin' | 'upstream'): string[] {
  const known: readonly string[] = deepSearchFields
  const given = (field: keyof DeepSearchBody) => body[field] !== undefined && body[field] !== null
  return [
    ...(engine === 'builtin' ? modelChatOptions.filter(given) : []),
    ...(!body.stream && given('stream_options') ? ['stream_options'] : []),
    ...Object.keys(body).filter((field) => !known.includes(field)),
  ]
}

/** The engine that answered (`X-Engine`) and the options it did not apply (`X-Options-Not-Applied`). */
export function engineHeaders(skipped: (engine: 'builtin' | 'upstream') => string[]): Record<string, string> {
  const engine = serverEnv().DEEPSEARCH_ENGINE
  const names = skipped(engine)
  return {
    'x-engine': `deepsearch:${engine}`,
    ...(names.length > 0 && { 'x-options-not-applied': names.join(', ') }),
  }
}

const chatHeaders = (body: DeepSearchBody) => engineHeaders((engine) => notApplied(body, engine))

/** A failure after a stream began, as its status and one sentence. */
export function failureOf(error: unknown): { status: number; message: string } {
  const { status, detail } = publicAnswer(error)
  return { status, message: typeof detail === 'string' ? detail : detail.map((issue) => issue.msg).join('; ') }
}

/**
 * Deep search answered as the request asks: streamed chunks (`data: {chunk}` events, then `data: [DONE]`)
 * or one completion. Refusals found before the run starts (key, limit, balance) are plain HTTP answers; a
 * failure during a stream becomes a chunk of `type: "error"` ("status: detail"), since its 200 is sent.
 */
export async function deepSearchAnswer(
  request: Request,
  caller: Caller,
  json: DeepSearchBody,
  headers: { 'x-reasoning-format'?: ReasoningFormat },
) {
  const body = { ...json, reasoning_format: json.reasoning_format ?? headers['x-reasoning-format'] }
  const prepared = await prepareDeepSearch(caller, body)
  if (!body.stream) {
    const { content, reasoning, citations, totals, finish } = await prepared.run(() => undefined, {
      signal: request.signal,
      streaming: false,
    })
    return jsonResponse(prepared.chunks.completion({ content, reasoning }, citations, totals, finish), {
      headers: chatHeaders(json),
    })
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
        const { status, message } = failureOf(error)
        sink.send({ data: JSON.stringify(prepared.chunks.error(`${status}: ${message}`)) })
      }
      sink.send({ data: '[DONE]' })
    },
    () => undefined,
    { signal: request.signal, headers: chatHeaders(json) },
  )
}
