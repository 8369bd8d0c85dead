import { tokenRateLimits } from '#config'
import type { EndpointHandler } from './endpoint'

type JsonSchema = Record<string, unknown>
type Spec = EndpointHandler['spec']

const integer = { type: 'integer' }
const duration = { type: 'string', examples: ['59s', '1m0s', '17ms'] }

/** The answer headers of rate-limited, token-limited and idempotent calls (content/docs/rate-limits.md). */
export const answerHeaders: Record<string, { description: string; schema: JsonSchema }> = {
  'X-RateLimit-Limit': { description: "Requests a minute this key's tier may send to this API", schema: integer },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: integer },
  'X-RateLimit-Reset': { description: 'Seconds until the window ends', schema: integer },
  'x-ratelimit-limit-requests': { description: 'OpenAI’s name for `X-RateLimit-Limit`', schema: integer },
  'x-ratelimit-remaining-requests': { description: 'OpenAI’s name for `X-RateLimit-Remaining`', schema: integer },
  'x-ratelimit-reset-requests': {
    description: 'Time until the request window ends, as OpenAI writes durations',
    schema: duration,
  },
  'x-ratelimit-limit-tokens': { description: "Tokens a minute this key's tier may send to this API", schema: integer },
  'x-ratelimit-remaining-tokens': { description: 'Tokens left in the current window', schema: integer },
  'x-ratelimit-reset-tokens': { description: 'Time until the token window ends', schema: duration },
  'Idempotent-Replayed': {
    description: '`true` when the answer is the stored answer of an earlier request with the same `Idempotency-Key`',
    schema: { type: 'string', enum: ['true'] },
  },
}

const requestHeaderNames = Object.keys(answerHeaders).filter((name) => /request|^X-RateLimit/.test(name))
const tokenHeaderNames = Object.keys(answerHeaders).filter((name) => name.endsWith('-tokens'))

/** The headers an endpoint's answers carry (`{headers}`, or nothing), as references to `components.headers`. */
export function answerHeadersOf(spec: Spec): JsonSchema {
  const names = [
    ...(spec.limit ? requestHeaderNames : []),
    ...(spec.metered && spec.limit && spec.limit in tokenRateLimits ? tokenHeaderNames : []),
    ...(spec.idempotent ? ['Idempotent-Replayed'] : []),
  ]
  if (names.length === 0) return {}
  return { headers: Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }])) }
}

/** The `Idempotency-Key` request header of an endpoint that honours it. */
export function idempotencyParameter(spec: Spec): JsonSchema[] {
  if (!spec.idempotent) return []
  return [
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Names this request for 24 hours (per API key): sent again with the same request, it is answered with the stored answer and charged once; with another request, 422; while the first is still answered, 409. Only 2xx JSON and text answers are stored (a stream is not)',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
  ]
}
