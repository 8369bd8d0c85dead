import { createServerFn } from '@tanstack/react-start'
import { setResponseHeader } from '@tanstack/react-start/server'
import { keyedCaptchaInput, keyedInput } from '~/contracts/dashboard'
import { captchaChallengeQuery, captchaForm } from '~/contracts/keys'
import { captchaChallenge, issueKeyFor, keyInfoFor, revokeFor } from '~/server/api/keys'
import { validatorOf } from '~/server/http/input'
import { serverFnCaller } from '~/server/http/server-fn-caller'
import { apiCall } from '~/lib/api-call'

/** The key service for the dashboard, over server functions: the same calls as /api/v1/api_key/* and /api/v1/captcha/challenge. */

export const fetchCaptchaChallenge = createServerFn({ method: 'GET' })
  .middleware([apiCall])
  .validator(validatorOf(captchaChallengeQuery))
  .handler(({ data }) => {
    // Each challenge is redeemed once: a cached one would only fail.
    setResponseHeader('cache-control', 'no-store')
    return captchaChallenge(data)
  })

export const requestTrialKey = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(captchaForm))
  .handler(({ data }) => issueKeyFor(serverFnCaller(), 'trial', data))

export const requestEmptyKey = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(captchaForm))
  .handler(({ data }) => issueKeyFor(serverFnCaller(), 'empty', data))

/** A read, but POST: the key travels in the body, never in a URL a log could keep. */
export const fetchKeyInfo = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedInput))
  .handler(({ data }) => keyInfoFor(serverFnCaller(data.apiKey)))

export const revokeApiKey = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(keyedCaptchaInput))
  .handler(({ data }) => revokeFor(serverFnCaller(data.apiKey), data))
