import { createServerFn } from '@tanstack/react-start'
import { classifierIdInput, classifyInput, renameClassifierInput, trainInput } from '~/contracts/classifier-dashboard'
import { keyedInput } from '~/contracts/dashboard'
import { classifiersOf, nameClassifier, removeClassifier } from '~/server/api/search/classifiers'
import { classify } from '~/server/api/search/classify'
import { train } from '~/server/api/search/train'
import { validatorOf } from '~/server/http/input'
import { meteredServerFn, serverFnCaller } from '~/server/http/server-fn-caller'
import { apiCall } from '~/lib/api-call'

/** The classifier calls for the dashboard: the same operations as /v1/train, /v1/classify and /v1/classifiers. */

export const fetchClassifiers = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedInput))
  // Without `metadata`: free-form JSON the screen does not show (and Start cannot type as serialisable).
  .handler(async ({ data }) =>
    (await classifiersOf(serverFnCaller(data.apiKey), 'dashboard')).map(({ metadata: _, ...item }) => item),
  )

export const trainClassifier = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(trainInput))
  .handler(({ data }) => meteredServerFn(data.apiKey, 'classifier', (caller) => train(caller, data.request)))

export const classifyText = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(classifyInput))
  .handler(({ data }) => meteredServerFn(data.apiKey, 'classifier', (caller) => classify(caller, data.request)))

export const deleteClassifier = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(classifierIdInput))
  .handler(({ data }) => removeClassifier(serverFnCaller(data.apiKey), data.id))

export const renameClassifier = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(renameClassifierInput))
  .handler(async ({ data }) => {
    const { metadata: _, ...item } = await nameClassifier(serverFnCaller(data.apiKey), data.id, data.name)
    return item
  })
