import type { TextOrImage } from '~/contracts/search'
import type { EmbeddingEngine, RerankEngine } from '../../providers/inference/engines'
import type { ServedModel } from '../../providers/inference/registry'
import { servingRegistry } from '../../providers/inference/select'
import { invalid } from './inputs'

/**
 * What an image input is charged, in tokens, whatever its size: the original API prices an image by its
 * tiles, which this server (forwarding images unopened) cannot count.
 */
export const IMAGE_TOKENS = 1000

/** Fields of a lenient body that the endpoint does not read, in the order the caller sent them. */
export function unknownFields<B extends object>(body: B, known: readonly string[]): Array<keyof B & string> {
  return Object.keys(body).filter((field) => !known.includes(field)) as Array<keyof B & string>
}

/**
 * Refuses image inputs a model or its engine cannot read, naming where they can be read: a text-only model
 * names the catalogue's multimodal models; a multimodal model on an engine that reads no images (builtin,
 * onnx) names the engine that does (an upstream).
 */
export async function checkImages(
  served: ServedModel,
  engine: EmbeddingEngine | RerankEngine,
  inputs: TextOrImage[],
  loc: Array<string | number>,
): Promise<void> {
  const at = inputs.findIndex((input) => typeof input !== 'string' && input.image !== undefined)
  if (at < 0) return
  if (!served.api.inputs.includes('image')) {
    const registry = await servingRegistry()
    const multimodal = registry.catalogue.filter(({ api }) => api.inputs.includes('image')).map(({ id }) => id)
    throw invalid(
      [...loc, at],
      `is an image, and ${served.id} reads text only (models that read images: ${multimodal.join(', ')})`,
      'unsupported',
    )
  }
  if (!engine.readsImages)
    throw invalid(
      [...loc, at],
      `is an image, and this server computes ${served.id} with its ${engine.kind} engine, which reads text only: images are read by the upstream engine (see SERVED_MODELS)`,
      'unsupported',
    )
}
