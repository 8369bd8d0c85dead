import type { BatchEndpoint } from '~/contracts/batches'
import type { Caller } from '../caller'

/** A batch line's answer: the status and JSON body the endpoint would have answered the same request with. */
export interface LineAnswer {
  status: number
  body: unknown
}

/**
 * Answers one line of a batch as its endpoint answers a request: the body checked with the endpoint's
 * contract, the operation run, a refusal turned into its status and `{detail}`. Checking and refusing are the
 * HTTP edge's (app/server/http/batch-lines.ts), so the server entry hands it to the job worker here.
 */
export type AnswerLine = (endpoint: BatchEndpoint, body: unknown, caller: Caller) => Promise<LineAnswer>

let provided: AnswerLine | undefined

export function provideBatchLines(answer: AnswerLine): void {
  provided = answer
}

export function answerLine(endpoint: BatchEndpoint, body: unknown, caller: Caller): Promise<LineAnswer> {
  if (!provided) throw new Error('no batch line answerer: the server entry provides it (provideBatchLines)')
  return provided(endpoint, body, caller)
}
