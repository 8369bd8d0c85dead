import { models } from '#content/models'
import type { ModelTag } from '#content/vocabulary'
import { InvalidInput } from '../../domain/refusals'

const slugsTagged = (tag: ModelTag) => models.filter((model) => model.tags.includes(tag)).map((model) => model.slug)

/** Model names each capability answers to: the catalogue's models with its tag, listed once. */
const served = { embeddings: slugsTagged('embeddings'), rerank: slugsTagged('reranker') }

/**
 * Refuses a `model` this server does not answer to, naming the ones it does. A local engine computes
 * every catalogued model's requests itself and says so in the answer's `model`; an upstream API is
 * asked for the model by name and judges it there.
 */
export function checkModel(
  capability: keyof typeof served,
  model: string,
  engine: { kind: string; model?: string },
): void {
  if (engine.kind === 'upstream') return
  const names = [...served[capability], ...(engine.model ? [engine.model] : [])]
  if (!names.includes(model))
    throw new InvalidInput([
      { loc: ['body', 'model'], msg: `must be one of ${names.join(', ')}`, type: 'unknown_model' },
    ])
}
