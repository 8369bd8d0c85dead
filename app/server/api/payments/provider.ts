import { serverEnv, type ServerEnv } from '~/server/env'
import { getDb } from '../../db/client'
import { PaymentsUnavailable } from '../../domain/refusals'
import { sandboxProvider, type Sandbox } from '../../providers/payments/sandbox'
import { stripeProvider } from '../../providers/payments/stripe'
import type { PaymentProvider } from '../../providers/payments/types'
import { receiveWebhook } from './webhook'

let cached: { env: ServerEnv; provider: PaymentProvider | undefined; sandbox: Sandbox | undefined } | undefined
let sandboxSecret: string | undefined

function build(env: ServerEnv) {
  if (env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET) {
    const provider = stripeProvider({
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      apiUrl: env.STRIPE_API_URL,
    })
    return { env, provider, sandbox: undefined }
  }
  // The sandbox hands out tokens for a test card: only where it was asked for (npm start, the tests).
  if (env.PAYMENTS_SANDBOX !== 'on') return { env, provider: undefined, sandbox: undefined }
  const sandbox: Sandbox = sandboxProvider({
    secret: env.PAYMENTS_SANDBOX_SECRET ?? (sandboxSecret ??= `whsec_sandbox${crypto.randomUUID().replace(/-/g, '')}`),
    baseUrl: env.PUBLIC_BASE_URL,
    db: getDb,
    // The sandbox's events reach the same receiver a POST to /api/v1/billing/webhook/stripe does.
    deliver: (payload, signature) =>
      receiveWebhook(undefined, sandbox.provider, payload, signature).then(() => undefined),
  })
  return { env, provider: sandbox.provider, sandbox }
}

function configured(env: ServerEnv) {
  if (cached?.env !== env) cached = build(env)
  return cached
}

/** Which payment service this server uses: Stripe, the sandbox, or none (undefined). */
export function paymentsKind(env = serverEnv()): PaymentProvider['kind'] | undefined {
  return configured(env).provider?.kind
}

/**
 * The configured payment service: Stripe when its keys are set, else the sandbox when PAYMENTS_SANDBOX=on.
 * Without either, refused (`PaymentsUnavailable`): every call that would charge or credit asks here first.
 */
export function paymentProvider(env = serverEnv()): PaymentProvider {
  const { provider } = configured(env)
  if (!provider) throw new PaymentsUnavailable()
  return provider
}

/** The sandbox, when it is the payment service (its checkout page needs it), else undefined. */
export function paymentSandbox(env = serverEnv()): Sandbox | undefined {
  return configured(env).sandbox
}
