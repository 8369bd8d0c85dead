/** Contract of the metering call the search services make for each usage event. */
import * as v from 'valibot'
import { maxTokens, presentedKey } from './common'

const productName = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'must be a product name like embeddings'))

export const usageBody = v.pipe(
  v.strictObject({
    api_key: v.optional(presentedKey),
    key_id: v.optional(v.pipe(v.string(), v.uuid('must be a key id'))),
    product: productName,
    model: v.optional(v.pipe(v.string(), v.maxLength(128))),
    tokens: v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number'),
      v.minValue(1),
      v.maxValue(maxTokens),
    ),
    usage_event_id: v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(200),
      v.description('Idempotency key: the same event is charged once.'),
    ),
  }),
  v.check(
    (body) => (body.api_key === undefined) !== (body.key_id === undefined),
    'give exactly one of api_key and key_id',
  ),
)

export const usageAnswer = v.object({
  usage_event_id: v.string(),
  key_id: v.string(),
  tokens: v.number(),
  balance: v.number(),
  duplicate: v.boolean(),
})
