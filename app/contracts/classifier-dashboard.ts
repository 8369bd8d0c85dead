/** The dashboard's classifier calls: the key (in the body, never a URL) and the /v1 request they make. */
import * as v from 'valibot'
import { presentedKey } from './common'
import { classifierName, classifyBody, trainBody } from './search'

const keyField = { apiKey: presentedKey }

export const trainInput = v.strictObject({ ...keyField, request: trainBody })
export const classifyInput = v.strictObject({ ...keyField, request: classifyBody })
export const classifierIdInput = v.strictObject({ ...keyField, id: v.pipe(v.string(), v.maxLength(100)) })
export const renameClassifierInput = v.strictObject({
  ...keyField,
  id: v.pipe(v.string(), v.maxLength(100)),
  name: classifierName,
})
