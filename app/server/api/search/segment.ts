import type * as v from 'valibot'
import { segmentFields, type segmentAnswer, type segmentBody } from '~/contracts/search'
import { segment } from '../../providers/inference/segment'
import { unknownFields } from './model-options'

/**
 * POST /v1/segment: tokens and chunks of a text. Free of charge, as the original's segmenter is: a key
 * (checked by the endpoint) only raises the per-minute limit over the 20 an address gets without one.
 * `usage.tokens` is what the call cost, 0, as the original reports a free call; the count is `num_tokens`.
 * Fields it does not read come back in `notApplied`.
 */
export async function segmentContent(
  body: v.InferOutput<typeof segmentBody>,
): Promise<{ answer: v.InferInput<typeof segmentAnswer>; notApplied: string[] }> {
  const answer = { ...(await segment(body.content, body)), usage: { tokens: 0 } }
  // `tokens` travels as JSON text the endpoint writes as it is (segmentAnswer's entries, already serialised).
  return {
    answer: answer as unknown as v.InferInput<typeof segmentAnswer>,
    notApplied: unknownFields(body, segmentFields),
  }
}
