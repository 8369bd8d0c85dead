import { unavailabilityCode } from '../db/unavailable'
import { DatabaseUnavailable, isRefusal, type InputIssue } from '../domain/refusals'
import { errorFields, log } from '../log'
import { stringifyPaced } from '../paced-json'
import { currentRequest } from '../request-context'
import { isOpenAiPath, openAiError } from './openai-error'
import { answerFor, type PublicAnswer } from './refusal-answers'

/**
 * A refusal that belongs to HTTP itself rather than to any call: a body too large, the wrong content
 * type, malformed JSON, an unknown endpoint, a cross-site write. Call-level refusals are domain
 * outcomes (`app/server/domain/refusals.ts`).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | InputIssue[],
    options?: { cause?: unknown },
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail), options)
    this.name = 'HttpError'
  }
}

const encoder = new TextEncoder()

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return textJsonResponse(JSON.stringify(body), init)
}

/**
 * `jsonResponse` for an answer computed from caller input, whose size the caller chooses: serialised in
 * paced slices, so a large answer does not hold the event loop while it is written.
 */
export async function pacedJsonResponse(body: unknown, init: ResponseInit = {}): Promise<Response> {
  return textJsonResponse(await stringifyPaced(body), init)
}

function textJsonResponse(json: string, init: ResponseInit): Response {
  const headers = new Headers(init.headers)
  headers.set('content-type', 'application/json; charset=utf-8')
  headers.set('cache-control', headers.get('cache-control') ?? 'no-store')
  // A known length lets Node send the answer in one write instead of chunked (a second write for the end).
  const bytes = encoder.encode(json)
  headers.set('content-length', String(bytes.byteLength))
  return new Response(bytes, { ...init, headers })
}

const internalError: PublicAnswer = { status: 500, detail: 'Internal server error' }

/**
 * What the caller reads for anything thrown: a refusal's answer from the one table, an HTTP refusal
 * as it is, and for anything else a bare 500. Logged once here: refusals at info (their kind and where,
 * never the input), the unexpected at error with the cause chain and the request id.
 */
export function publicAnswer(error: unknown): PublicAnswer & { refusal?: string } {
  if (isRefusal(error)) {
    const answer = { ...answerFor(error), refusal: error.kind }
    // A full disk is the operator's to fix, not the caller's: a warning, with what the file system said.
    if (error.kind === 'InsufficientStorage')
      log('warn', 'refused', { status: answer.status, refusal: error.kind, error: errorFields(error.cause) })
    else log('info', 'refused', { status: answer.status, refusal: error.kind, ...issueFields(error) })
    return answer
  }
  const unavailable = unavailabilityCode(error)
  if (unavailable) {
    // Expected by the hundred during a database restart or failover: one line each, without a stack.
    const refusal = new DatabaseUnavailable(unavailable, { cause: error })
    const answer = { ...answerFor(refusal), refusal: refusal.kind }
    log('warn', 'refused', { status: answer.status, refusal: refusal.kind, code: unavailable })
    return answer
  }
  if (error instanceof HttpError) {
    log('info', 'refused', { status: error.status, refusal: 'http' })
    return { status: error.status, detail: error.detail }
  }
  log('error', 'unexpected error', { error: errorFields(error) })
  return internalError
}

/** Where and what kind of check failed; the messages may quote the input, so they stay out. */
function issueFields(error: { kind: string; issues?: InputIssue[] }) {
  return error.issues ? { issues: error.issues.map(({ loc, type }) => ({ loc, type })) } : {}
}

/**
 * The answer for anything thrown: `{detail}`, or the body `shape` makes of it (the reader's, which keeps
 * `detail`); on /v1 (the OpenAI-shaped APIs, whatever route is added there) OpenAI's
 * `{error: {message, type, code, param}}` beside `detail`, which its SDKs read into their errors.
 */
export function errorResponse(
  error: unknown,
  shape?: (answer: PublicAnswer, error: unknown) => Record<string, unknown>,
): Response {
  const answer = publicAnswer(error)
  const body = shape
    ? shape(answer, error)
    : isOpenAiPath(currentRequest()?.path)
      ? { detail: answer.detail, error: openAiError(answer) }
      : { detail: answer.detail }
  return jsonResponse(body, { status: answer.status, headers: answer.headers })
}
