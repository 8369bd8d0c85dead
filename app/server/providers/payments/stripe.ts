import Stripe from 'stripe'
import { PaymentServiceFailed } from '../../domain/refusals'
import { readSignedEvent } from './signed-event'
import { minorUnits, type CardFacts, type CheckoutFacts, type PaymentIntentFacts, type PaymentProvider } from './types'

export interface StripeSettings {
  secretKey: string
  webhookSecret: string
  /** Another address for Stripe's API (tests point it at a loopback fake). */
  apiUrl?: string
}

/**
 * Stripe through the official package, on its fetch client and Web Crypto (so the same code runs on edge
 * runtimes). Packs are Stripe prices whose lookup key is the product's own price id (`price_tokens_1b`, …),
 * so a session's line items name the pack without any mapping of ours.
 */
export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined
  const stripe = new Stripe(settings.secretKey, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    ...(api
      ? {
          host: api.hostname,
          port: api.port,
          protocol: api.protocol === 'http:' ? ('http' as const) : ('https' as const),
        }
      : {}),
  })
  const crypto = Stripe.createSubtleCryptoProvider()
  const prices = new Map<string, string>()

  /** Stripe's price for one of ours, by lookup key (looked up once per process). */
  async function stripePrice(priceId: string): Promise<string> {
    const known = prices.get(priceId)
    if (known) return known
    const list = await stripe.prices.list({ lookup_keys: [priceId], active: true, limit: 1 })
    const price = list.data[0]
    if (!price) throw new PaymentServiceFailed(`no active Stripe price has the lookup key ${priceId}`)
    prices.set(priceId, price.id)
    return price.id
  }

  const cardOf = (method: Stripe.PaymentMethod | string | null | undefined): CardFacts | null =>
    method && typeof method === 'object' && method.card
      ? { paymentMethodId: method.id, brand: method.card.brand, last4: method.card.last4 }
      : null
  const idOf = (value: string | { id: string } | null | undefined) =>
    typeof value === 'string' ? value : (value?.id ?? null)
  const receiptOf = (intent: Stripe.PaymentIntent | null) => {
    const charge = intent?.latest_charge
    return charge && typeof charge === 'object' ? (charge.receipt_url ?? null) : null
  }

  /** Stripe's own failures (network, API) are the service's; our refusals pass through. */
  const calling = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call()
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError) throw new PaymentServiceFailed(error.message, { cause: error })
      throw error
    }
  }

  return {
    kind: 'stripe',
    createCheckout: (request) =>
      calling(async () => {
        const session = await stripe.checkout.sessions.create({
          mode: 'payment',
          line_items: [{ price: await stripePrice(request.pack.price_id), quantity: 1 }],
          client_reference_id: request.keyId,
          metadata: { purchase_id: request.purchaseId, key_id: request.keyId },
          ...(request.customerId
            ? { customer: request.customerId }
            : { customer_creation: 'always', ...(request.email ? { customer_email: request.email } : {}) }),
          payment_intent_data: {
            metadata: { purchase_id: request.purchaseId, key_id: request.keyId, kind: 'checkout' },
            ...(request.saveCard ? { setup_future_usage: 'off_session' } : {}),
          },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        })
        if (!session.url) throw new PaymentServiceFailed('Stripe answered a checkout session without a URL')
        return { id: session.id, url: session.url }
      }),

    createCardSetup: (request) =>
      calling(async () => {
        const metadata = { card_setup_id: request.setupId, key_id: request.keyId }
        const session = await stripe.checkout.sessions.create({
          mode: 'setup',
          currency: request.currency.toLowerCase(),
          client_reference_id: request.keyId,
          metadata,
          ...(request.customerId
            ? { customer: request.customerId }
            : { customer_creation: 'always', ...(request.email ? { customer_email: request.email } : {}) }),
          setup_intent_data: { metadata: { ...metadata, kind: 'card_setup' } },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        })
        if (!session.url) throw new PaymentServiceFailed('Stripe answered a checkout session without a URL')
        return { id: session.id, url: session.url }
      }),

    setupFacts: (sessionId) =>
      calling(async () => {
        const session = await stripe.checkout.sessions.retrieve(sessionId, {
          expand: ['setup_intent.payment_method'],
        })
        const intent = typeof session.setup_intent === 'object' ? session.setup_intent : null
        return {
          id: session.id,
          status: (['complete', 'expired'] as const).find((s) => s === session.status) ?? 'open',
          setupIntentId: idOf(session.setup_intent),
          setupStatus: intent?.status === 'succeeded' ? 'succeeded' : 'other',
          customerId: idOf(session.customer) ?? idOf(intent?.customer),
          email: session.customer_details?.email ?? session.customer_email ?? null,
          card: cardOf(intent?.payment_method),
        }
      }),

    verifyEvent: (payload, signature) =>
      readSignedEvent(stripe.webhooks, crypto, payload, signature, settings.webhookSecret),

    checkoutFacts: (sessionId) =>
      calling(async (): Promise<CheckoutFacts> => {
        const session = await stripe.checkout.sessions.retrieve(sessionId, {
          expand: ['line_items.data.price', 'payment_intent.payment_method', 'payment_intent.latest_charge'],
        })
        const item = session.line_items?.data[0]
        const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null
        return {
          id: session.id,
          paymentStatus:
            (['paid', 'no_payment_required'] as const).find((s) => s === session.payment_status) ?? 'unpaid',
          status: (['complete', 'expired'] as const).find((s) => s === session.status) ?? 'open',
          priceId: item?.price?.lookup_key ?? null,
          quantity: session.line_items?.data.reduce((sum, line) => sum + (line.quantity ?? 0), 0) ?? 0,
          amountTotal: session.amount_total ?? 0,
          currency: session.currency ?? '',
          paymentIntentId: idOf(session.payment_intent),
          customerId: idOf(session.customer),
          email: session.customer_details?.email ?? session.customer_email ?? null,
          card: cardOf(intent?.payment_method),
          receiptUrl: receiptOf(intent),
        }
      }),

    paymentIntentFacts: (paymentIntentId) =>
      calling(async (): Promise<PaymentIntentFacts> => {
        const intent = await stripe.paymentIntents.retrieve(paymentIntentId, {
          expand: ['payment_method', 'latest_charge'],
        })
        const known = ['succeeded', 'processing', 'requires_action', 'requires_payment_method', 'canceled'] as const
        return {
          id: intent.id,
          status: (known as readonly string[]).includes(intent.status)
            ? (intent.status as (typeof known)[number])
            : 'other',
          amount: intent.amount,
          currency: intent.currency,
          customerId: idOf(intent.customer),
          card: cardOf(intent.payment_method),
          receiptUrl: receiptOf(intent),
        }
      }),

    async chargeOffSession(request) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: minorUnits(request.pack),
            currency: request.pack.currency.toLowerCase(),
            customer: request.customerId,
            payment_method: request.paymentMethodId,
            off_session: true,
            confirm: true,
            metadata: { kind: 'auto_recharge', attempt_id: request.attemptId, key_id: request.keyId },
          },
          // The attempt's id: a retried charge of one attempt is the same payment, never a second one.
          { idempotencyKey: `auto-recharge-${request.attemptId}` },
        )
        if (intent.status === 'succeeded' || intent.status === 'processing')
          return { status: 'submitted', paymentIntentId: intent.id }
        return { status: 'authentication_required', paymentIntentId: intent.id, reason: `payment ${intent.status}` }
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const intentId = (error.payment_intent as { id?: string } | undefined)?.id ?? null
          const status = error.code === 'authentication_required' ? 'authentication_required' : 'declined'
          return { status, paymentIntentId: intentId, reason: error.message }
        }
        if (error instanceof Stripe.errors.StripeError) throw new PaymentServiceFailed(error.message, { cause: error })
        throw error
      }
    },
  }
}
