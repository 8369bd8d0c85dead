import type { ClassifierItem } from '~/contracts/search'
import { classifierItem, deleteClassifier, listClassifiers, renameClassifier } from '../../domain/classifiers'
import { keyOf, type Caller } from '../caller'

/** The caller's own classifiers, newest first (public ones of other keys are usable but not listed). */
export async function classifiersOf(caller: Caller, api: 'classify' | 'dashboard'): Promise<ClassifierItem[]> {
  const { db, key } = await keyOf(caller, api)
  return listClassifiers(db, key.id)
}

export async function removeClassifier(caller: Caller, id: string) {
  const { db, key } = await keyOf(caller, 'classify')
  await deleteClassifier(db, id, key.id)
  return { classifier_id: id, deleted: true as const }
}

/** PATCH /v1/classifiers/{id}: names one of the caller's own classifiers (null or empty: no name). */
export async function nameClassifier(caller: Caller, id: string, name: string | null): Promise<ClassifierItem> {
  const { db, key } = await keyOf(caller, 'classify')
  return classifierItem(await renameClassifier(db, id, key.id, name))
}
