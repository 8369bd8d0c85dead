import type * as v from 'valibot'
import { searchLimits, trainExampleFields, trainFields, type trainAnswer, type trainBody } from '~/contracts/search'
import { createClassifier, ownClassifier, saveTraining, type ClassifierRow } from '../../domain/classifiers'
import { decodeWeights, encodeWeights, trainClassifier } from '../../providers/inference/classifier-model'
import { servedModel } from '../../providers/inference/select'
import { keyOf, type Caller } from '../caller'
import { limitKeyTokens } from '../rate-limit'
import { chargeRequest, paidFor } from './charge'
import { invalid, meterTexts } from './inputs'
import { unknownFields } from './model-options'
import type { Served } from './served'

type Body = v.InferOutput<typeof trainBody>

/**
 * POST /v1/train: trains a new classifier (`model`) or one of the key's own further (`classifier_id`) on
 * labelled texts: logistic regression on the texts' embeddings for `num_iters` epochs. Charged for the texts.
 * Unknown fields of the body (and of its examples, as `input[].field`) are named in `notApplied`.
 */
export async function train(caller: Caller, body: Body): Promise<Served<v.InferInput<typeof trainAnswer>>> {
  const { db, key } = await keyOf(caller, 'classify')
  const previous: ClassifierRow | undefined = body.classifier_id
    ? await ownClassifier(db, body.classifier_id, key.id)
    : undefined
  const model = previous?.modelName ?? body.model!
  caller.requestLog?.noteModel(model)
  const served = await servedModel(model, 'classify', previous ? ['body', 'classifier_id'] : ['body', 'model'])
  const engine = served.embeddings!
  const exampleFields = new Set(body.input.flatMap((example) => unknownFields(example, trainExampleFields)))
  const notApplied = [...unknownFields(body, trainFields), ...[...exampleFields].map((field) => `input[].${field}`)]
  const labels = [...new Set([...(previous?.labels ?? []), ...body.input.map((example) => example.label)])]
  if (labels.length > searchLimits.maxClasses)
    throw invalid(
      ['body', 'input'],
      `has ${labels.length} classes with the classifier's own, over the limit of ${searchLimits.maxClasses}`,
      'limit',
    )
  const texts = await meterTexts(
    body.input.map((example) => example.text),
    { maxTokens: engine.maxInputTokens, truncate: true, loc: ['body', 'input'] },
  )
  await limitKeyTokens(caller, 'classify', key, texts.tokens)
  const charge = await chargeRequest(caller, db, key, { tokens: texts.tokens, product: 'classifier', model })
  const row = await paidFor(charge, async () => {
    const embedded = await engine.embed(texts.texts, {
      requestedModel: model,
      task: 'classification',
      lateChunking: false,
    })
    if (previous && embedded.model !== previous.engineModel)
      throw invalid(
        ['body', 'classifier_id'],
        `was trained on ${previous.engineModel}, and this server now computes with ${embedded.model}: train a new one`,
        'engine_changed',
      )
    const weights = await trainClassifier({
      previous: previous ? decodeWeights(previous.weights) : undefined,
      examples: embedded.vectors.map((vector, index) => ({ vector, label: body.input[index].label })),
      numIters: body.num_iters,
    })
    const trained = { labels: weights.labels, weights: encodeWeights(weights) }
    if (previous) return saveTraining(db, previous, { ...trained, access: body.access, name: body.name })
    return createClassifier(db, {
      keyId: key.id,
      name: body.name ?? null,
      modelName: model,
      engineModel: embedded.model,
      access: body.access ?? 'private',
      ...trained,
    })
  })
  return {
    engine: served.engine,
    notApplied,
    answer: { classifier_id: row.id, num_samples: body.input.length, usage: { total_tokens: texts.tokens } },
  }
}
