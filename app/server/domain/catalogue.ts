import { models } from '../../../content/models'
import type { Model, ModelTag } from '../../../content/schemas'
import type { ModelRecord } from '~/contracts/catalogue'

type Describe = (descriptor: Model['description']) => string

let describe: Promise<Describe> | undefined

/** Descriptions are Lingui messages; production builds strip the source text, so read it from the en-US catalog. */
function describer(): Promise<Describe> {
  describe ??= (async () => {
    try {
      const { loadCatalog, i18nFor } = await import('../../lib/i18n')
      const i18n = i18nFor('en-US', await loadCatalog('en-US'))
      return (d: Model['description']) => i18n._(d)
    } catch {
      return (d: Model['description']) => d.message ?? d.id
    }
  })()
  return describe
}

function modelRecord(model: Model, text: Describe): ModelRecord {
  return {
    slug: model.slug,
    name: model.name,
    tags: model.tags,
    parameters: model.parameters,
    context_length: model.contextLength,
    dimensions: model.dimensions ?? null,
    release_date: model.releaseDate,
    description: text(model.description),
    hugging_face_url: model.huggingFaceUrl,
    license: model.license,
    num_replicas: model.numReplicas,
    benchmark: model.benchmark ?? null,
    paper_ids: model.paperIds,
    image: model.image,
  }
}

/** The catalogue the website shows; with tags, only models carrying every one of them. */
export async function listModels(tags: ModelTag[] = []): Promise<ModelRecord[]> {
  const text = await describer()
  return models.filter((m) => tags.every((t) => m.tags.includes(t))).map((m) => modelRecord(m, text))
}

export async function findModel(slug: string): Promise<ModelRecord | undefined> {
  const model = models.find((m) => m.slug === slug)
  return model && modelRecord(model, await describer())
}
