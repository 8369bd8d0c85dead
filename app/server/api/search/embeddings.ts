import type * as v from 'valibot'
import {
  embeddingsFields,
  searchLimits,
  type EmbeddingType,
  type embeddingsAnswer,
  type embeddingsBody,
  type TextOrImage,
} from '~/contracts/search'
import { encodeEmbedding } from '../../providers/inference/embedding-output'
import type { EmbedInput } from '../../providers/inference/engines'
import { servedModel } from '../../providers/inference/select'
import { keyOf, type Caller } from '../caller'
import { limitKeyTokens } from '../rate-limit'
import { chargeRequest, paidFor } from './charge'
import { invalid, meterTexts, tooManyTokens } from './inputs'
import { checkImages, IMAGE_TOKENS, unknownFields } from './model-options'
import type { Served } from './served'

type Body = v.InferOutput<typeof embeddingsBody>
type Answer = v.InferInput<typeof embeddingsAnswer>

/** The smallest prefix a caller may keep of a locally computed vector (the builtin projection's first block). */
export const MIN_DIMENSIONS = 8

/**
 * POST /v1/embeddings: one vector per input (or one per token with `return_multivector`), charged per input
 * token before it is computed. Every option is applied, refused with a 422 saying why, or (when clients send
 * it whatever the model: `task`, `user`) named in `notApplied`; an upstream engine judges what it is forwarded.
 */
export async function createEmbeddings(caller: Caller, body: Body): Promise<Served<Answer>> {
  const { db, key } = await keyOf(caller, 'embeddings')
  const served = await servedModel(body.model, 'embeddings')
  caller.requestLog?.noteModel(served.id)
  const engine = served.embeddings!
  const upstream = engine.kind === 'upstream'
  const unknown = unknownFields(body, embeddingsFields)
  const notApplied: string[] = upstream ? [] : [...unknown]
  await checkImages(served, engine, body.input, ['body', 'input'])

  if (body.task && engine.tasks.kind === 'adapters' && !engine.tasks.tasks.includes(body.task)) notApplied.push('task')
  if (body.user !== undefined && !upstream) notApplied.push('user')
  if (body.late_chunking && !(served.api.lateChunking && engine.supportsLateChunking))
    throw invalid(
      ['body', 'late_chunking'],
      `is not available for ${served.id}: it embeds each input on its own${served.api.lateChunking ? ` on this server's ${engine.kind} engine` : ''}`,
      'unsupported',
    )
  if (body.return_multivector && !upstream && !(served.api.multiVectorDimensions && engine.multiVectorDimensions))
    throw invalid(
      ['body', 'return_multivector'],
      `is not available for ${served.id}: it gives one vector per input (models with multi-vector output: colbert-v2, embeddings-v4)`,
      'unsupported',
    )
  const fullSize = body.return_multivector ? engine.multiVectorDimensions : engine.dimensions
  if (body.dimensions !== undefined && !upstream) {
    if (fullSize && body.dimensions > fullSize)
      throw invalid(['body', 'dimensions'], `must be at most ${fullSize}, the model's dimension`, 'too_large')
    if (body.dimensions < MIN_DIMENSIONS)
      throw invalid(['body', 'dimensions'], `must be at least ${MIN_DIMENSIONS}`, 'too_small')
  }

  const { inputs, tokens } = await meterInputs(body.input, engine.maxInputTokens, body.truncate)
  // A batch's lines were counted against the limits when it was created.
  if (!caller.batch) await limitKeyTokens(caller, 'embeddings', key, tokens)
  const charge = await chargeRequest(caller, db, key, { tokens, product: 'embeddings', model: served.id })
  const result = await paidFor(charge, async () => {
    const computed = await engine.embed(inputs, {
      requestedModel: body.model,
      task: body.task,
      lateChunking: body.late_chunking,
      normalized: body.normalized,
      multiVector: body.return_multivector,
      dimensions: body.dimensions,
      // An upstream judges what this server does not read, OpenAI's end-user id included.
      passThrough: upstream
        ? Object.fromEntries(
            [...unknown, ...(body.user === undefined ? [] : ['user' as const])].map((field) => [field, body[field]]),
          )
        : undefined,
    })
    const dimension = computed.vectors[0]?.length ?? 0
    if (body.dimensions !== undefined && !body.return_multivector && body.dimensions > dimension)
      throw invalid(['body', 'dimensions'], `must be at most ${dimension}, the model's dimension`, 'too_large')
    return computed
  })
  const named = body.embedding_type ?? body.encoding_type ?? body.encoding_format ?? 'float'
  const format = {
    dimensions: body.dimensions,
    normalized: body.normalized,
    types: (Array.isArray(named) ? named : [named]) as EmbeddingType[],
    asList: Array.isArray(named),
  }
  return {
    engine: served.engine,
    notApplied,
    answer: {
      model: served.id,
      object: 'list',
      data: result.vectors.map((vector, index) => {
        const tokenVectors = result.multiVectors?.[index]
        // Token vectors are unit length each, whatever `normalized` says of the pooled vector.
        const each = (token: Float32Array) =>
          encodeEmbedding(token, { ...format, normalized: true, dimensions: clip(format.dimensions, token.length) })
        return body.return_multivector && tokenVectors
          ? { object: 'embedding' as const, index, embeddings: tokenVectors.map(each) }
          : { object: 'embedding' as const, index, embedding: encodeEmbedding(vector, format) }
      }),
      usage: { total_tokens: tokens, prompt_tokens: tokens },
    },
  }
}

const clip = (dimensions: number | undefined, length: number) =>
  dimensions === undefined ? undefined : Math.min(dimensions, length)

/**
 * Texts metered (cl100k_base) and held to the input limit as `meterTexts` does, in their places among the
 * images, which are charged IMAGE_TOKENS each. The whole request is held to 1,024 times the input limit
 * (`searchLimits.maxEmbeddingRequestInputLimits`), as many tokens as 1,024 full inputs, whatever their count.
 */
async function meterInputs(
  list: TextOrImage[],
  maxTokens: number,
  truncate: boolean,
): Promise<{ inputs: EmbedInput[]; tokens: number }> {
  const texts = list.map((input) => (typeof input === 'string' ? input : (input.text ?? '')))
  const bound = { loc: ['body', 'input'], maxTotalTokens: maxTokens * searchLimits.maxEmbeddingRequestInputLimits }
  const metered = await meterTexts(texts, { maxTokens, truncate, ...bound })
  let images = 0
  const inputs = list.map((input, index): EmbedInput => {
    if (typeof input !== 'string' && input.image !== undefined) {
      images++
      return { image: input.image }
    }
    return metered.texts[index]
  })
  const tokens = metered.tokens + images * IMAGE_TOKENS
  if (tokens > bound.maxTotalTokens) throw tooManyTokens(bound)
  return { inputs, tokens }
}
