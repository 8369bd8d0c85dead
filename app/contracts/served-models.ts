/**
 * Wire contract of `GET /v1/models`: OpenAI's list shape (`{object: "list", data: [{id, object: "model",
 * created, owned_by}]}`, what its SDKs' `models.list()` reads), each model with what this server does with it:
 * whether and by what it is served, its capabilities, and which request options it honours.
 */
import * as v from 'valibot'
import { apiCapabilities, apiInputs, embeddingTasks } from '#content/vocabulary'

export const optionSupport = v.object({
  /** Options applied as documented. */
  honoured: v.array(v.string()),
  /** Options accepted and named in `X-Options-Not-Applied`: they change nothing for this model here. */
  not_applied: v.array(v.string()),
  /** Options refused with 422 (saying why) when given. */
  refused: v.array(v.string()),
})

export const servedModelRecord = v.object({
  id: v.string(),
  object: v.literal('model'),
  /** Release date, in seconds since 1970 (OpenAI's field). */
  created: v.number(),
  owned_by: v.string(),
  name: v.string(),
  /** Other names a request may give (the ids existing client libraries send). */
  aliases: v.array(v.string()),
  capabilities: v.array(v.picklist([...apiCapabilities, 'chat'])),
  inputs: v.array(v.picklist(apiInputs)),
  dimensions: v.nullable(v.number()),
  multi_vector_dimensions: v.nullable(v.number()),
  context_length: v.number(),
  /** Task adapters the model has (`task` values that change its vectors). */
  tasks: v.array(v.picklist(embeddingTasks)),
  /** Whether this server serves it, and with what engine (`builtin`, `onnx:<folder>`, `use-lite`, `upstream:<model>`). */
  served: v.boolean(),
  engine: v.nullable(v.string()),
  /** Per endpoint, how this server treats each option (absent when not served). */
  options: v.optional(v.record(v.string(), optionSupport)),
})
export type ServedModelRecord = v.InferOutput<typeof servedModelRecord>

export const servedModelsAnswer = v.object({ object: v.literal('list'), data: v.array(servedModelRecord) })
