import { createServerFn } from '@tanstack/react-start'
import { modelsQuery } from '~/contracts/catalogue'
import { models, packs } from '~/server/api/catalogue'
import { listServedModels } from '~/server/api/search/served-models'
import { validatorOf } from '~/server/http/input'
import { apiCall } from '~/lib/api-call'

/** The catalogue for the dashboard: the same calls as /api/v1/models and /api/v1/product. */

export const fetchModels = createServerFn({ method: 'GET' })
  .middleware([apiCall])
  .validator(validatorOf(modelsQuery))
  .handler(({ data }) => models(data))

export const fetchProducts = createServerFn({ method: 'GET' })
  .middleware([apiCall])
  .handler(() => packs())

/** What this server serves of the catalogue, and with what: the same call as GET /v1/models. */
export const fetchServedModels = createServerFn({ method: 'GET' })
  .middleware([apiCall])
  .handler(() => listServedModels())
