import { brand } from '#config'
import type { ServedModelRecord, servedModelsAnswer } from '~/contracts/served-models'
import type * as v from 'valibot'
import { ModelNotFound } from '../../domain/refusals'
import type { ServedModel } from '../../providers/inference/registry'
import { servingRegistry } from '../../providers/inference/select'
import { chatModelRecords } from './chat-models'

type Options = NonNullable<ServedModelRecord['options']>

/** GET /v1/models: every model of the catalogue the search APIs know, served here or not, and deep search. */
export async function listServedModels(): Promise<v.InferInput<typeof servedModelsAnswer>> {
  const registry = await servingRegistry()
  const records = registry.catalogue.map(({ id, catalogue, api, served }): ServedModelRecord => ({
    id,
    object: 'model',
    created: Math.floor(Date.parse(catalogue.releaseDate.replaceAll('/', '-')) / 1000),
    owned_by: brand.name,
    name: catalogue.name,
    aliases: api.aliases,
    capabilities: api.capabilities,
    inputs: api.inputs,
    dimensions: catalogue.dimensions ?? null,
    multi_vector_dimensions: api.multiVectorDimensions ?? null,
    context_length: catalogue.contextLength,
    tasks: api.tasks,
    served: Boolean(served),
    engine: served?.engine ?? null,
    ...(served && { options: optionsOf(served) }),
  }))
  return { object: 'list', data: [...records, ...chatModelRecords()] }
}

/** GET /v1/models/{id}: one of them, by its API id or an alias; 404 for any other name. */
export async function servedModelInfo(name: string): Promise<ServedModelRecord> {
  const { data } = await listServedModels()
  const found = data.find((model) => model.id === name || model.aliases.includes(name))
  if (!found) throw new ModelNotFound()
  return found as ServedModelRecord
}

/** How each endpoint treats each option for this model on its engine, as the endpoints do (./embeddings.ts). */
function optionsOf(served: ServedModel): Options {
  const options: Options = {}
  const { api } = served
  const images = api.inputs.includes('image')
  const embeddings = served.embeddings
  if (embeddings && api.capabilities.includes('embeddings')) {
    const upstream = embeddings.kind === 'upstream'
    const tasks = embeddings.tasks.kind === 'forwarded' || embeddings.tasks.tasks.length > 0
    const late = api.lateChunking && embeddings.supportsLateChunking
    const multi = upstream || Boolean(api.multiVectorDimensions && embeddings.multiVectorDimensions)
    const readsImages = images && embeddings.readsImages
    const sort = (names: Array<string | false>) => names.filter((name): name is string => Boolean(name))
    options.embeddings = {
      honoured: sort([
        'input',
        'dimensions',
        'embedding_type',
        'encoding_type',
        'encoding_format',
        'normalized',
        'truncate',
        tasks && 'task',
        late && 'late_chunking',
        multi && 'return_multivector',
        readsImages && 'input.image',
        upstream && 'user',
      ]),
      not_applied: sort([!tasks && 'task', !upstream && 'user']),
      refused: sort([!late && 'late_chunking', !multi && 'return_multivector', !readsImages && 'input.image']),
    }
  }
  if (embeddings && api.capabilities.includes('classify'))
    options.classify = { honoured: ['input', 'labels', 'classifier_id'], not_applied: [], refused: [] }
  if (served.reranker) {
    const readsImages = images && served.reranker.readsImages
    options.rerank = {
      honoured: [
        'query',
        'documents',
        'top_n',
        'return_documents',
        'truncate',
        ...(readsImages ? ['documents.image'] : []),
      ],
      not_applied: [],
      refused: readsImages ? [] : ['documents.image'],
    }
  }
  return options
}
