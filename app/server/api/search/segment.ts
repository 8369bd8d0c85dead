import type * as v from 'valibot'
import type { segmentAnswer, segmentBody } from '~/contracts/search'
import { segment } from '../../providers/inference/segment'

/**
 * POST /v1/segment: tokens and chunks of a text. Free of charge, as the original's segmenter is: a key
 * (checked by the endpoint) only raises the per-minute limit over the 20 an address gets without one.
 * `usage.tokens` reports the count.
 */
export function segmentContent(body: v.InferOutput<typeof segmentBody>): Promise<v.InferInput<typeof segmentAnswer>> {
  return segment(body.content, body)
}
