import * as v from 'valibot'
import { modelTags } from '#content/vocabulary'

/** ?tag=… on /models and /models/{slug}; an unknown tag falls back to the full catalogue instead of an error page. */
export const modelsSearchSchema = v.object({
  tag: v.fallback(v.optional(v.picklist(modelTags)), undefined),
})
export type ModelsSearch = v.InferOutput<typeof modelsSearchSchema>
