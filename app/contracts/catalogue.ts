/** Contracts of the public catalogue: models and token packs. */
import * as v from 'valibot'
import { modelTags } from '#content/vocabulary'

export const modelsQuery = v.strictObject({
  tag: v.optional(
    v.pipe(v.array(v.picklist(modelTags)), v.description('Repeatable; models carrying every given tag.')),
  ),
})

export const modelAnswer = v.object({
  slug: v.string(),
  name: v.string(),
  tags: v.array(v.picklist(modelTags)),
  parameters: v.string(),
  context_length: v.number(),
  dimensions: v.nullable(v.number()),
  release_date: v.string(),
  description: v.string(),
  hugging_face_url: v.string(),
  license: v.string(),
  num_replicas: v.number(),
  benchmark: v.nullable(v.object({ name: v.string(), metric: v.string(), score: v.number() })),
  paper_ids: v.array(v.string()),
  image: v.string(),
})

/** Spec §3 product/pack; `price` is in major units of `currency`. */
export const packAnswer = v.object({
  id: v.string(),
  product_id: v.string(),
  product_name: v.string(),
  product_description: v.string(),
  price: v.number(),
  price_id: v.string(),
  currency: v.string(),
  token_quantity: v.number(),
})

export type ModelRecord = v.InferOutput<typeof modelAnswer>
export type Pack = v.InferOutput<typeof packAnswer>
