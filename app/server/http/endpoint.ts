import type * as v from 'valibot'
import type { RateLimitedApi } from '../../../app.config'
import { keyOf, optionalKeyOf, type Caller } from '../api/caller'
import { bearerToken, requireServiceToken } from './auth'
import { errorResponse, pacedJsonResponse } from './errors'
import { parseForm, parseHeaders, parseJson, parseJsonOrForm, parseQuery, type RefuseInput } from './input'
import { rateLimitHeaders } from './refusal-answers'
import { openRequestLog } from '../api/request-log/record'
import { withRequestLogged } from './request-log-answer'

type Schema = v.GenericSchema
type Parsed<S> = S extends Schema ? v.InferOutput<S> : undefined

/**
 * How a call proves who it is: an API key (bearer, or fe_user's `api_key` query), an API key if it has one
 * (else it is limited per address), the metering services' token, a Firebase ID token (bearer), the sign-in
 * session cookie, or nothing. The account calls check the last two themselves (`api/account`).
 */
export type Auth = 'none' | 'key' | 'key-optional' | 'key-or-query' | 'service' | 'id-token' | 'session'

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

/** Where the call stands against its request limit, on success and refusal alike (a 429 says it itself). */
function withRateState(response: Response, caller: Caller): Response {
  if (caller.rate && !response.headers.has('x-ratelimit-limit'))
    for (const [name, value] of Object.entries(rateLimitHeaders(caller.rate))) response.headers.set(name, value)
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
    const caller: Caller = { request, presentedKey: bearerToken(request) }
    if (spec.metered) openRequestLog(spec.metered)
    const response = await answer(caller, params)
    return spec.metered ? withRequestLogged(response) : response
  }
  const answer = async (caller: Caller, params: Record<string, string>): Promise<Response> => {
    const { request } = caller
    try {
      if (spec.auth === 'service') requireServiceToken(request)
      if (spec.auth === 'key') await keyOf(caller, spec.limit)
      if (spec.auth === 'key-optional') await optionalKeyOf(caller, spec.limit ?? 'dashboard')
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
      if (result instanceof Response) return withRateState(result, caller)
      return withRateState(
        await pacedJsonResponse(result, spec.cache ? { headers: { 'cache-control': spec.cache } } : {}),
        caller,
      )
    } catch (error) {
      return withRateState(errorResponse(error), caller)
    }
  }
  return Object.assign(handler, { spec: spec as EndpointHandler['spec'] })
}
