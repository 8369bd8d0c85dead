import type * as v from 'valibot'
import type { embeddingsAnswer, embeddingsBody } from '~/contracts/search'
import { formatEmbedding } from '../../providers/inference/embedding-output'
import { engines } from '../../providers/inference/select'
import { keyOf, type Caller } from '../caller'
import { limitKeyTokens } from '../rate-limit'
import { chargeRequest, paidFor } from './charge'
import { invalid, meterTexts } from './inputs'
import { checkModel } from './models'

type Body = v.InferOutput<typeof embeddingsBody>

/** POST /v1/embeddings: one vector per input, charged per input token before it is computed. */
export async function createEmbeddings(caller: Caller, body: Body): Promise<v.InferInput<typeof embeddingsAnswer>> {
  const { db, key } = await keyOf(caller, 'embeddings')
  const { embeddings: engine } = await engines()
  checkModel('embeddings', body.model, engine)
  if (body.late_chunking && !engine.supportsLateChunking)
    throw invalid(['body', 'late_chunking'], `is not supported by this server's ${engine.kind} engine`, 'unsupported')
  if (body.dimensions !== undefined && engine.kind !== 'upstream' && body.dimensions > engine.dimensions)
    throw invalid(['body', 'dimensions'], `must be at most ${engine.dimensions}, the model's dimension`, 'too_large')
  const { texts, tokens } = await meterTexts(body.input, {
    maxTokens: engine.maxInputTokens,
    truncate: body.truncate,
    loc: ['body', 'input'],
  })
  await limitKeyTokens('embeddings', key, tokens)
  const charge = await chargeRequest(db, key, { tokens, product: 'embeddings', model: body.model })
  const result = await paidFor(charge, async () => {
    const computed = await engine.embed(texts, {
      requestedModel: body.model,
      task: body.task,
      lateChunking: body.late_chunking,
    })
    const dimension = computed.vectors[0]?.length ?? 0
    if (body.dimensions !== undefined && body.dimensions > dimension)
      throw invalid(['body', 'dimensions'], `must be at most ${dimension}, the model's dimension`, 'too_large')
    return computed
  })
  return {
    model: result.model,
    object: 'list',
    data: result.vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: formatEmbedding(vector, {
        dimensions: body.dimensions,
        normalized: body.normalized,
        type: body.embedding_type,
      }),
    })),
    usage: { total_tokens: tokens, prompt_tokens: tokens },
  }
}
