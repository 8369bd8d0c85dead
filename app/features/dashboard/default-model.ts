import { defaultModelIds } from '#content/vocabulary'

/**
 * The model a dashboard form starts with: the API's own default for that use when it is listed, else the first
 * listed. One rule for every form, so training and bulk embedding start on the same model.
 */
export function defaultModelOf<M extends { slug: string }>(
  models: readonly M[] | undefined,
  use: keyof typeof defaultModelIds,
): M | undefined {
  return models?.find((m) => m.slug === defaultModelIds[use]) ?? models?.[0]
}
