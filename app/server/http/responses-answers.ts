import { deepSearchBody } from '~/contracts/deepsearch'
import { responsesFieldOf, toChatBody, type ResponsesBody } from '~/contracts/responses'
import type { Caller } from '../api/caller'
import { responseMaker } from '../api/deepsearch/responses'
import { prepareDeepSearch } from '../api/deepsearch/run'
import { InvalidInput } from '../domain/refusals'
import { engineHeaders, failureOf, notApplied } from './chat-answers'
import { jsonResponse } from './errors'
import { eventStreamResponse } from './event-stream'
import { validate } from './input'

/** The chat completion a Responses request stands for, its problems located in the Responses request's fields. */
function chatBodyOf(json: ResponsesBody) {
  try {
    return validate(deepSearchBody, toChatBody(json), 'body')
  } catch (error) {
    if (!(error instanceof InvalidInput)) throw error
    const offset = json.instructions ? 1 : 0
    throw new InvalidInput(
      error.issues.map((issue) => {
        const [where, field, index, ...rest] = issue.loc
        const named = responsesFieldOf[field as string] ?? field
        const moved =
          named === 'input' && typeof index === 'number' ? [index - offset] : index === undefined ? [] : [index]
        return { ...issue, loc: [where, named, ...moved, ...rest] }
      }),
    )
  }
}

/**
 * POST /v1/responses: deep search answered as OpenAI's Responses API, on the same run as the chat completion
 * (the same checks before it starts, the same metering and charge), as one `response` object or its
 * events (`event: <type>` and its JSON). Refusals before the run are plain HTTP answers (`{detail}`); a
 * failure during a stream is an `error` event and `response.failed`.
 */
export async function responsesAnswer(request: Request, caller: Caller, json: ResponsesBody) {
  const body = chatBodyOf(json)
  const prepared = await prepareDeepSearch(caller, body)
  const maker = responseMaker(body, { instructions: json.instructions ?? null })
  const headers = engineHeaders((engine) => notApplied(body, engine))
  if (!body.stream) {
    const outcome = await prepared.run(() => undefined, { signal: request.signal, streaming: false })
    return jsonResponse(maker.answer(outcome), { headers })
  }
  return eventStreamResponse(
    async (sink) => {
      const events = maker.events((event) => sink.send({ event: event.type, data: JSON.stringify(event) }))
      events.start()
      try {
        const outcome = await prepared.run((chunk) => events.chunk(chunk), { signal: sink.signal, streaming: true })
        events.finish(outcome)
      } catch (error) {
        if (sink.signal.aborted) return
        const { status, message } = failureOf(error)
        events.fail(status, message)
      }
    },
    () => undefined,
    { signal: request.signal, headers },
  )
}
