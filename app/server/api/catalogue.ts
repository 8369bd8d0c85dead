/** The public catalogue's calls: models and token packs. No key needed. */
import type * as v from 'valibot'
import type { ModelRecord, Pack, modelsQuery } from '~/contracts/catalogue'
import { findModel, listModels } from '../domain/catalogue'
import { offeredPacks } from '../domain/packs'
import { ModelNotFound } from '../domain/refusals'

export function models({ tag }: v.InferOutput<typeof modelsQuery>): Promise<ModelRecord[]> {
  return listModels(tag)
}

export async function model(slug: string): Promise<ModelRecord> {
  const found = await findModel(slug)
  if (!found) throw new ModelNotFound()
  return found
}

/** Spec §3 packs: the free pack first, then those with an allowed price id. */
export function packs(): Pack[] {
  return offeredPacks()
}
