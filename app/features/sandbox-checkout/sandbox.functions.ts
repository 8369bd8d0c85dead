import { createServerFn } from '@tanstack/react-start'
import { sandboxAuthenticateInput, sandboxPayInput, sandboxSessionInput } from '~/contracts/payments'
import { sandboxAuthenticateFor, sandboxPayFor, sandboxSessionFor } from '~/server/api/payments/sandbox-checkout'
import { validatorOf } from '~/server/http/input'
import { apiCall } from '~/lib/api-call'

/** The sandbox's hosted checkout page, played by this app: its session, paying it, its 3-D Secure step. */

export const fetchSandboxSession = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(sandboxSessionInput))
  .handler(({ data }) => sandboxSessionFor(data.session_id))

export const paySandboxSession = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(sandboxPayInput))
  .handler(({ data: { session_id, ...card } }) => sandboxPayFor(session_id, card))

export const authenticateSandboxSession = createServerFn({ method: 'POST' })
  .middleware([apiCall])
  .validator(validatorOf(sandboxAuthenticateInput))
  .handler(({ data }) => sandboxAuthenticateFor(data.session_id, data.approve))
