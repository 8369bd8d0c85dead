import type { Pack } from '~/contracts/catalogue'

/**
 * What the app needs of a payment service, in Stripe's terms: the `stripe` provider calls Stripe, the
 * `sandbox` provider plays it locally (its checkout is a page of this app). Both hand their events to the
 * same webhook route, signed the same way, so fulfilment runs one code path whichever is configured.
 */
export interface PaymentProvider {
  readonly kind: 'stripe' | 'sandbox'
  createCheckout(request: CheckoutRequest): Promise<{ id: string; url: string }>
  /**
   * The event in a webhook's raw body, if its signature is right and dated within the tolerance (past and
   * future); `PaymentSignatureInvalid` otherwise, `PaymentEventMalformed` for a signed body that is no event.
   */
  verifyEvent(payload: string, signature: string | null): Promise<PaymentEvent>
  /** A checkout session as the service records it: its line items, not anything an event could carry. */
  checkoutFacts(sessionId: string): Promise<CheckoutFacts>
  paymentIntentFacts(paymentIntentId: string): Promise<PaymentIntentFacts>
  /** A checkout in setup mode: the visitor saves a card and nothing is charged (auto-recharge charges it later). */
  createCardSetup(request: CardSetupRequest): Promise<{ id: string; url: string }>
  /** A setup-mode checkout session as the service records it, with the card its setup intent saved. */
  setupFacts(sessionId: string): Promise<SetupFacts>
  /** Charges a saved card without the customer present; the tokens come with the payment's webhook. */
  chargeOffSession(request: OffSessionCharge): Promise<ChargeOutcome>
}

export interface CheckoutRequest {
  /** Our purchase row: its id rides along so events can be matched, but never decides what is credited. */
  purchaseId: string
  keyId: string
  pack: Pack
  email?: string
  /** A customer the key already has (its saved card), so a second checkout does not create another. */
  customerId?: string
  /** Keep the card for off-session charges (auto-recharge). */
  saveCard: boolean
  successUrl: string
  cancelUrl: string
}

export interface CardSetupRequest {
  /** Our card setup row: rides along so the events find it, never decides which key the card goes to. */
  setupId: string
  keyId: string
  /** The currency later charges are in (Stripe asks for one in setup mode). */
  currency: string
  email?: string
  customerId?: string
  successUrl: string
  cancelUrl: string
}

export interface SetupFacts {
  id: string
  status: 'open' | 'complete' | 'expired'
  setupIntentId: string | null
  /** `succeeded` once the card is saved and may be charged off-session. */
  setupStatus: 'succeeded' | 'other'
  customerId: string | null
  email: string | null
  card: CardFacts | null
}

export interface CardFacts {
  paymentMethodId: string
  brand: string
  last4: string
}

export interface CheckoutFacts {
  id: string
  /** `paid` once the money is there; `unpaid` while an asynchronous payment (a bank debit) is on its way. */
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required'
  status: 'open' | 'complete' | 'expired'
  /** The line item's price, by the product's own price id (Stripe: the price's lookup key). */
  priceId: string | null
  quantity: number
  /** In minor units. */
  amountTotal: number
  currency: string
  paymentIntentId: string | null
  customerId: string | null
  email: string | null
  card: CardFacts | null
  receiptUrl: string | null
}

export interface PaymentIntentFacts {
  id: string
  status: 'succeeded' | 'processing' | 'requires_action' | 'requires_payment_method' | 'canceled' | 'other'
  amount: number
  currency: string
  customerId: string | null
  card: CardFacts | null
  receiptUrl: string | null
}

export interface OffSessionCharge {
  keyId: string
  attemptId: string
  customerId: string
  paymentMethodId: string
  pack: Pack
}

/** `submitted`: the service took the charge (it succeeded or is processing); the webhook says which. */
export type ChargeOutcome =
  | { status: 'submitted'; paymentIntentId: string }
  | { status: 'declined' | 'authentication_required'; paymentIntentId: string | null; reason: string }

/** A payment event: Stripe's `{id, type, data: {object}}`. */
export interface PaymentEvent {
  id: string
  type: string
  object: Record<string, unknown>
}

/** Amounts as the services count them: in the currency's minor units. */
export const minorUnits = (pack: Pack) => Math.round(pack.price * 100)
