import type { CardEntry } from '~/contracts/sandbox-cards'
import { PaymentsUnavailable, PurchaseNotFound } from '../../domain/refusals'
import type { SandboxPayment, SandboxSessionView } from '../../providers/payments/sandbox'
import { paymentSandbox, paymentsKind } from './provider'

/** The sandbox; with Stripe configured its checkout page does not exist, and with no payments at all it says so. */
function sandbox() {
  const found = paymentSandbox()
  if (found) return found
  if (!paymentsKind()) throw new PaymentsUnavailable('the sandbox is off (PAYMENTS_SANDBOX) and Stripe is not set up')
  throw new PurchaseNotFound('the sandbox is off: payments go through Stripe')
}

/** The sandbox checkout page's session: what is being bought, for how much. The session id is its capability, as Stripe's checkout URL is. */
export async function sandboxSessionFor(sessionId: string): Promise<SandboxSessionView> {
  const view = await sandbox().view(sessionId)
  if (!view) throw new PurchaseNotFound()
  return view
}

export async function sandboxPayFor(sessionId: string, entry: CardEntry): Promise<SandboxPayment> {
  const paid = await sandbox().pay(sessionId, entry)
  if (!paid) throw new PurchaseNotFound()
  return paid
}

export async function sandboxAuthenticateFor(sessionId: string, approve: boolean): Promise<SandboxPayment> {
  const done = await sandbox().authenticate(sessionId, approve)
  if (!done) throw new PurchaseNotFound()
  return done
}
