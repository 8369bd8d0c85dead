import type { CardEntry } from '~/contracts/sandbox-cards'
import { PurchaseNotFound } from '../../domain/refusals'
import type { SandboxPayment, SandboxSessionView } from '../../providers/payments/sandbox'
import { paymentSandbox } from './provider'

/** The sandbox, or not found: with Stripe configured its checkout page does not exist. */
function sandbox() {
  const found = paymentSandbox()
  if (!found) throw new PurchaseNotFound('the sandbox is off: payments go through Stripe')
  return found
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
