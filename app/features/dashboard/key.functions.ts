import { createServerFn } from '@tanstack/react-start'
import { keyedCaptchaInput, keyedInput } from '~/contracts/dashboard'
import { keyInfoFor, revokeFor } from '~/server/api/keys'
import { validatorOf } from '~/server/http/input'
import { serverFnCaller } from '~/server/http/server-fn-caller'
import { apiCall } from '~/lib/api-call'

/** The dashboard's reads and revocation of a key: the same operations as GET /api/v1/api_key/fe_user and DELETE /api/v1/api_key. Issuing a key and its captcha go over REST (app/lib), shared with the demos. */

/** A read, but POST: the key travels in the body, never in a URL a log could keep. */
export const fetchKeyInfo = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedInput))
  .handler(({ data }) => keyInfoFor(serverFnCaller(data.apiKey)))

export const revokeApiKey = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedCaptchaInput))
  .handler(({ data }) => revokeFor(serverFnCaller(data.apiKey), data))
