import type * as v from 'valibot'
import type { RateLimitedApi } from '../../../app.config'
import { keyOf, optionalKeyOf, type Caller } from '../api/caller'
import { bearerToken, requireServiceToken } from './auth'
import { errorResponse, jsonResponse } from './errors'
import { parseForm, parseJson, parseQuery, type RefuseInput } from './input'
import { rateLimitHeaders } from './refusal-answers'

type Schema = v.GenericSchema
type Parsed<S> = S extends Schema ? v.InferOutput<S> : undefined

/**
 * How a call proves who it is: an API key (bearer, or fe_user's `api_key` query), an API key if it has one
 * (else it is limited per address), the metering services' token, or nothing.
 */
export type Auth = 'none' | 'key' | 'key-optional' | 'key-or-query' | 'service'

/**
 * One REST endpoint's contract and documentation, next to its route: the schemas its handler
 * validates with are the ones the OpenAPI document (`./openapi.ts`) describes, so the two cannot drift.
 */
export interface EndpointSpec<
  Q extends Schema | undefined,
  F extends Schema | undefined,
  J extends Schema | undefined,
  A extends Schema,
> {
  summary: string
  description?: string
  auth: Auth
  /** The per-minute limits a keyed call counts against (default: the dashboard's); answered as `X-RateLimit-*`. */
  limit?: RateLimitedApi
  query?: Q
  form?: F
  json?: J
  answer: A
  /** Statuses a caller can be refused with (each documented with the `{detail}` shape). */
  errors: number[]
  /** A valid body for docs and tools, where the schema alone cannot give one (cross-field rules). */
  example?: unknown
  /** `cache-control` of a successful answer; `no-store` otherwise. */
  cache?: string
  refuse?: RefuseInput
}

export interface EndpointCall<Q, F, J> {
  request: Request
  params: Record<string, string>
  query: Parsed<Q>
  form: Parsed<F>
  json: Parsed<J>
  caller: Caller
}

export type EndpointHandler = ((ctx: { request: Request; params?: Record<string, string> }) => Promise<Response>) & {
  spec: EndpointSpec<Schema | undefined, Schema | undefined, Schema | undefined, Schema>
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
>(
  spec: EndpointSpec<Q, F, J, A>,
  run: (call: EndpointCall<Q, F, J>) => Promise<v.InferInput<A>> | v.InferInput<A>,
): EndpointHandler {
  const handler = async ({ request, params = {} }: { request: Request; params?: Record<string, string> }) => {
    const caller: Caller = { request, presentedKey: bearerToken(request) }
    try {
      if (spec.auth === 'service') requireServiceToken(request)
      if (spec.auth === 'key') await keyOf(caller, spec.limit)
      if (spec.auth === 'key-optional') await optionalKeyOf(caller, spec.limit ?? 'dashboard')
      const query = (spec.query ? parseQuery(request, spec.query, spec.refuse) : undefined) as Parsed<Q>
      if (spec.auth === 'key-or-query') caller.presentedKey ??= (query as { api_key?: string } | undefined)?.api_key
      const form = (spec.form ? await parseForm(request, spec.form, spec.refuse) : undefined) as Parsed<F>
      const json = (spec.json ? await parseJson(request, spec.json, spec.refuse) : undefined) as Parsed<J>
      const answer = await run({ request, params, query, form, json, caller })
      return withRateState(jsonResponse(answer, spec.cache ? { headers: { 'cache-control': spec.cache } } : {}), caller)
    } catch (error) {
      return withRateState(errorResponse(error), caller)
    }
  }
  return Object.assign(handler, { spec: spec as EndpointHandler['spec'] })
}
