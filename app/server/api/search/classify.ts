import type * as v from 'valibot'
import { classifyFields, type classifyAnswer, type classifyBody } from '~/contracts/search'
import { recordUse, usableClassifier } from '../../domain/classifiers'
import { decodeWeights, predict, zeroShotScores, type ScoredLabel } from '../../providers/inference/classifier-model'
import { servedModel, servingRegistry } from '../../providers/inference/select'
import { keyOf, type Caller } from '../caller'
import { limitKeyTokens } from '../rate-limit'
import { chargeRequest, paidFor } from './charge'
import { invalid, meterTexts } from './inputs'
import { unknownFields } from './model-options'
import type { Served } from './served'

type Body = v.InferOutput<typeof classifyBody>
type Answer = v.InferInput<typeof classifyAnswer>

/**
 * POST /v1/classify: each input's label, zero-shot (by similarity to the label texts) or by a trained
 * classifier (its own or a public one). Charged for the inputs, and the labels when zero-shot. Unknown
 * fields, and a `model` beside a classifier trained on another, are named in `notApplied`.
 */
export async function classify(caller: Caller, body: Body): Promise<Served<Answer>> {
  const { db, key } = await keyOf(caller, 'classify')
  const classifier = body.classifier_id ? await usableClassifier(db, body.classifier_id, key.id) : undefined
  const model = classifier?.modelName ?? body.model!
  caller.requestLog?.noteModel(model)
  const served = await servedModel(model, 'classify', classifier ? ['body', 'classifier_id'] : ['body', 'model'])
  const engine = served.embeddings!
  const notApplied: string[] = unknownFields(body, classifyFields)
  // A trained classifier computes with the model it was trained on, whatever model the request names.
  if (classifier && body.model !== undefined && (await servingRegistry()).find(body.model)?.id !== served.id)
    notApplied.unshift('model')
  const limits = { maxTokens: engine.maxInputTokens, truncate: true }
  const inputs = await meterTexts(body.input, { ...limits, loc: ['body', 'input'] })
  const labels = await meterTexts(body.labels ?? [], { ...limits, loc: ['body', 'labels'] })
  const tokens = inputs.tokens + labels.tokens
  // A batch's lines were counted against the limits when it was created.
  if (!caller.batch) await limitKeyTokens(caller, 'classify', key, tokens)
  const charge = await chargeRequest(caller, db, key, { tokens, product: 'classifier', model })
  const scored = await paidFor(charge, async (): Promise<ScoredLabel[][]> => {
    const options = { requestedModel: model, task: 'classification' as const, lateChunking: false }
    if (!classifier) {
      const embedded = await engine.embed([...inputs.texts, ...labels.texts], options)
      const vectors = embedded.vectors
      const scores = zeroShotScores(vectors.slice(0, inputs.texts.length), vectors.slice(inputs.texts.length))
      return scores.map((row) =>
        row.map((score, j) => ({ label: body.labels![j], score })).sort((a, b) => b.score - a.score),
      )
    }
    const embedded = await engine.embed(inputs.texts, options)
    if (embedded.model !== classifier.engineModel)
      throw invalid(
        ['body', 'classifier_id'],
        `was trained on ${classifier.engineModel}, and this server now computes with ${embedded.model}: train it again`,
        'engine_changed',
      )
    return predict(decodeWeights(classifier.weights), embedded.vectors)
  })
  if (classifier) await recordUse(db, classifier.id)
  return {
    engine: served.engine,
    notApplied,
    answer: {
      usage: { total_tokens: tokens },
      data: scored.map((predictions, index) => ({
        object: 'classification',
        index,
        prediction: predictions[0].label,
        score: predictions[0].score,
        predictions,
      })),
    },
  }
}
