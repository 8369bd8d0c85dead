import type * as v from 'valibot'
import type { RateLimitedApi } from '#config'
import { keyOf, optionalKeyOf, type Caller } from '../api/caller'
import { adminOf } from '../api/admin/caller'
import { bearerToken, requireServiceToken } from './auth'
import { errorResponse, pacedJsonResponse } from './errors'
import { parseForm, parseHeaders, parseJson, parseJsonOrForm, parseQuery, type RefuseInput } from './input'
import type { PublicAnswer } from './refusal-answers'
import { rateLimitHeaders, tokenRateLimitHeaders } from './rate-limit-headers'
import { idempotencyOf, type IdempotentCall } from './idempotent-answer'
import { withRequestLogged } from './request-log-answer'
import { callerOf } from './caller-of'
import { requestTagOf } from './request-tag'

type Schema = v.GenericSchema
type Parsed<S> = S extends Schema ? v.InferOutput<S> : undefined

/**
 * How a call proves who it is: an API key (bearer, or fe_user's `api_key` query), an API key if it has one
 * (else it is limited per address), the metering services' token, a Firebase ID token (bearer), the sign-in
 * session cookie, an Administration API key (`sk-admin-…`, bearer), or nothing. The account calls check the
 * session themselves (`api/account`).
 */
export type Auth = 'none' | 'key' | 'key-optional' | 'key-or-query' | 'service' | 'id-token' | 'session' | 'admin-key'

/**
 * One REST endpoint's contract and documentation, next to its route: the schemas its handler
 * validates with are the ones the OpenAPI document (`./openapi.ts`) describes, so the two cannot drift.
 */
export interface EndpointSpec<
  Q extends Schema | undefined,
  F extends Schema | undefined,
  J extends Schema | undefined,
  A extends Schema,
  H extends Schema | undefined = undefined,
> {
  summary: string
  description?: string
  auth: Auth
  /** The per-minute limits a keyed call counts against (default: the dashboard's); answered as `X-RateLimit-*`. */
  limit?: RateLimitedApi
  /**
   * A metered API call: each request with a key, answered or refused, gets a row in the request log under
   * this product (the ledger's name for it, until a charge names its own).
   */
  metered?: string
  /**
   * A POST that honours `Idempotency-Key` (keyed calls): the same key and request within 24 hours is answered
   * with the stored answer (`Idempotent-Replayed: true`) and charged once (`./idempotent-answer.ts`).
   */
  idempotent?: boolean
  query?: Q
  /** Request headers the call reads, by lower-case name (an object schema; absent headers are undefined). */
  headers?: H
  form?: F
  json?: J
  /** The `json` schema also validates form-urlencoded and multipart bodies (files as base64 text). */
  jsonOrForm?: boolean
  /**
   * A multipart/form-data body the route streams itself (`readUpload`), never parsed here: documented from
   * `schema`, with `files` naming the fields that carry files.
   */
  upload?: { schema: Schema; files: string[] }
  /** The JSON answer; `run` may instead return a Response of one of the `alternatives`. */
  answer: A
  /** Answers in other media types (text, event streams), chosen by `Accept`: documented beside the JSON one. */
  alternatives?: Array<{ mediaType: string; description: string; schema?: Schema }>
  /** The name of a splat route's path parameter (the file `$.ts`), as the document shows it. */
  splat?: { name: string; description: string }
  /** The reference page's section, where it is not the path's first segment. */
  group?: string
  /** Statuses a caller can be refused with (each documented with the `{detail}` shape). */
  errors: number[]
  /** A refusal's body in another shape than `{detail}` (keeping `detail`): the reader's, in the original's envelope. */
  errorBody?: (answer: PublicAnswer, error: unknown) => Record<string, unknown>
  /** A valid body for docs and tools, where the schema alone cannot give one (cross-field rules). */
  example?: unknown
  /** `cache-control` of a successful answer; `no-store` otherwise. */
  cache?: string
  refuse?: RefuseInput
}

export interface EndpointCall<Q, F, J, H = undefined> {
  request: Request
  params: Record<string, string>
  query: Parsed<Q>
  headers: Parsed<H>
  form: Parsed<F>
  json: Parsed<J>
  caller: Caller
}

export type EndpointHandler = ((ctx: { request: Request; params?: Record<string, string> }) => Promise<Response>) & {
  spec: EndpointSpec<Schema | undefined, Schema | undefined, Schema | undefined, Schema, Schema | undefined>
}

/**
 * Where the call stands against its request limit and, where one applies, its token limit, on success and
 * refusal alike (a 429 says it of the limit it hit itself).
 */
function withRateState(response: Response, caller: Caller): Response {
  const set = (headers: Record<string, string>) => {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value)
  }
  if (caller.rate && !response.headers.has('x-ratelimit-limit-requests')) set(rateLimitHeaders(caller.rate))
  if (caller.tokenRate && !response.headers.has('x-ratelimit-limit-tokens'))
    set(tokenRateLimitHeaders(caller.tokenRate))
  return response
}

/**
 * A route handler from its spec: checks the caller (a keyed call's key before its body is read), parses
 * and validates the input with the spec's schemas, runs the call and answers JSON; anything thrown
 * leaves as `{detail}` through the one refusal table.
 */
export function endpoint<
  A extends Schema,
  Q extends Schema | undefined = undefined,
  F extends Schema | undefined = undefined,
  J extends Schema | undefined = undefined,
  H extends Schema | undefined = undefined,
>(
  spec: EndpointSpec<Q, F, J, A, H>,
  run: (call: EndpointCall<Q, F, J, H>) => Promise<v.InferInput<A> | Response> | v.InferInput<A> | Response,
): EndpointHandler {
  const handler = async ({ request, params = {} }: { request: Request; params?: Record<string, string> }) => {
    const caller = callerOf(request, bearerToken(request), spec.metered)
    const response = await answer(request, caller, params)
    return caller.requestLog ? withRequestLogged(response, caller.requestLog) : response
  }
  const optionHeaders = Object.keys((spec.headers as { entries?: object } | undefined)?.entries ?? {})
  const answer = async (request: Request, caller: Caller, params: Record<string, string>): Promise<Response> => {
    let idempotent: IdempotentCall | undefined
    try {
      if (spec.auth === 'service') requireServiceToken(request)
      if (caller.requestLog) caller.requestLog.noteTag(requestTagOf(request))
      if (spec.auth === 'key') await keyOf(caller, spec.limit)
      if (spec.auth === 'admin-key') await adminOf(caller)
      if (spec.auth === 'key-optional') await optionalKeyOf(caller, spec.limit ?? 'dashboard')
      // Before the body is parsed (it is hashed as sent); a replay needs no balance, as its answer was paid.
      if (spec.idempotent) idempotent = await idempotencyOf(request, caller, spec.limit ?? 'dashboard', optionHeaders)
      if (idempotent?.replay) return withRateState(idempotent.replay, caller)
      const query = (spec.query ? parseQuery(request, spec.query, spec.refuse) : undefined) as Parsed<Q>
      if (spec.auth === 'key-or-query') caller.presentedKey ??= (query as { api_key?: string } | undefined)?.api_key
      const form = (spec.form ? await parseForm(request, spec.form, spec.refuse) : undefined) as Parsed<F>
      const headers = (spec.headers ? parseHeaders(request, spec.headers, spec.refuse) : undefined) as Parsed<H>
      const json = (
        spec.json
          ? spec.jsonOrForm
            ? await parseJsonOrForm(request, spec.json, spec.refuse)
            : await parseJson(request, spec.json, spec.refuse)
          : undefined
      ) as Parsed<J>
      const result = await run({ request, params, query, headers, form, json, caller })
      const response =
        result instanceof Response
          ? result
          : await pacedJsonResponse(result, spec.cache ? { headers: { 'cache-control': spec.cache } } : {})
      return withRateState(idempotent ? await idempotent.settle(response) : response, caller)
    } catch (error) {
      // A refusal or failure charged nothing (or gave its tokens back): the key may be sent again.
      await idempotent?.release()
      return withRateState(errorResponse(error, spec.errorBody), caller)
    }
  }
  return Object.assign(handler, { spec: spec as EndpointHandler['spec'] })
}
