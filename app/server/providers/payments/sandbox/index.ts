import Stripe from 'stripe'
import { checkCard, type CardEntry, type CardProblem, type TestCard } from '~/contracts/sandbox-cards'
import type { Db, Tx } from '../../../db/types'
import { errorFields, log } from '../../../log'
import { readSignedEvent } from '../signed-event'
import { minorUnits, type CheckoutFacts, type PaymentIntentFacts, type PaymentProvider } from '../types'
import { lockObject, readObject, sandboxId, writeObject, type SandboxObject } from './store'

export interface SandboxSettings {
  /** Signs and checks the sandbox's webhook events (a test-mode webhook secret). */
  secret: string
  /** This app's public origin: the sandbox's checkout page is one of its pages. */
  baseUrl: string
  db: () => Promise<Db>
  /** Hands a signed event to the webhook route's receiver, as Stripe's POST would. */
  deliver: (payload: string, signature: string) => Promise<void>
}

type Session = SandboxObject & {
  /** `setup`: saves a card and charges nothing (auto-recharge without a purchase). */
  mode: 'payment' | 'setup'
  status: 'open' | 'complete' | 'expired'
  payment_status: 'paid' | 'unpaid' | 'no_payment_required'
  amount_total: number
  currency: string
  client_reference_id: string
  customer: string | null
  customer_email: string | null
  metadata: Record<string, string>
  line_items: { data: Array<{ price: { id: string; lookup_key: string }; quantity: number }> }
  payment_intent: string | null
  setup_intent: string | null
  success_url: string
  cancel_url: string
  save_card: boolean
  /** What the checkout page shows: the pack's name and size. */
  product: { name: string; tokens: number }
  /** A card waiting for its 3-D Secure step. */
  pending_card: { card: TestCard; last4: string } | null
}
type Intent = SandboxObject & {
  status: PaymentIntentFacts['status']
  amount: number
  currency: string
  customer: string | null
  payment_method: string | null
  metadata: Record<string, string>
}
type SetupIntent = SandboxObject & {
  status: 'succeeded'
  customer: string
  payment_method: string
  metadata: Record<string, string>
}
type Method = SandboxObject & { card: { brand: string; last4: string }; test_card: TestCard }

/** What paying on the sandbox's checkout page came to. */
export type SandboxPayment =
  | { kind: 'paid'; redirect: string }
  /** Another submit of the same session paid it first: this one charged nothing. */
  | { kind: 'already_paid'; redirect: string }
  | { kind: 'authenticate' }
  | { kind: 'declined' }
  | { kind: 'invalid'; problem: CardProblem }
  | { kind: 'closed'; redirect: string }

/** The sandbox's checkout page's view of a session. */
export interface SandboxSessionView {
  id: string
  mode: Session['mode']
  status: Session['status']
  product: Session['product']
  amount: number
  currency: string
  email: string | null
  saveCard: boolean
  awaitingAuthentication: boolean
  cancelUrl: string
  successUrl: string
}

/**
 * A local stand-in for Stripe, labelled as such wherever it shows: its checkout is a page of this app with
 * Stripe's test cards, and what it does reaches the app as Stripe-shaped events, signed with the sandbox's
 * secret and handed to the same webhook receiver. Off-session charges follow the saved test card.
 */
export function sandboxProvider(settings: SandboxSettings) {
  const signer = new Stripe('sk_test_sandbox', { httpClient: Stripe.createFetchHttpClient() })
  const crypto = Stripe.createSubtleCryptoProvider()
  const inFlight = new Set<Promise<unknown>>()

  async function send(type: string, object: SandboxObject): Promise<void> {
    const event = {
      id: sandboxId('evt'),
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: { object },
    }
    const payload = JSON.stringify(event)
    const signature = await signer.webhooks.generateTestHeaderStringAsync({
      payload,
      secret: settings.secret,
      cryptoProvider: crypto,
    })
    // Stripe retries a failed delivery; so does the sandbox, a few times.
    for (let attempt = 1; ; attempt++) {
      try {
        return await settings.deliver(payload, signature)
      } catch (error) {
        if (attempt >= 4) return log('error', 'sandbox webhook delivery failed', { type, error: errorFields(error) })
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt))
      }
    }
  }

  /** Events a charge sends after it answered, as Stripe's webhooks arrive after its API call returns. */
  function later(type: string, object: SandboxObject) {
    const delivery = new Promise((resolve) => setTimeout(resolve, 0)).then(() => send(type, object))
    inFlight.add(delivery)
    void delivery.finally(() => inFlight.delete(delivery))
  }

  const intentOf = (session: Session, customer: string | null, method: string, status: Intent['status']): Intent => ({
    id: sandboxId('pi'),
    object: 'payment_intent',
    status,
    amount: session.amount_total,
    currency: session.currency,
    customer,
    payment_method: method,
    metadata: { ...session.metadata, kind: 'checkout' },
  })

  const successUrlOf = (session: Session) => session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id)

  /** An event to send once the transaction that decided it has committed. */
  type Outgoing = [type: string, object: SandboxObject]

  /**
   * The card is good: the customer, the card (saved when asked), the payment and the session complete, all in
   * the transaction that holds the session's lock; the events go out after it commits.
   */
  async function complete(
    tx: Tx,
    session: Session,
    card: { card: TestCard; last4: string },
  ): Promise<{ payment: SandboxPayment; events: Outgoing[] }> {
    let customer = session.customer
    if (!customer) {
      customer = sandboxId('cus')
      await writeObject(tx, { id: customer, object: 'customer', email: session.customer_email })
    }
    const method: Method = {
      id: sandboxId('pm'),
      object: 'payment_method',
      card: { brand: 'visa', last4: card.last4 },
      test_card: card.card,
      customer: session.save_card ? customer : null,
    }
    await writeObject(tx, method)
    if (session.mode === 'setup') return saved(tx, session, customer, method)
    const intent = intentOf(session, customer, method.id, 'succeeded')
    await writeObject(tx, intent)
    const done: Session = {
      ...session,
      status: 'complete',
      payment_status: 'paid',
      customer,
      payment_intent: intent.id,
      pending_card: null,
    }
    await writeObject(tx, done)
    return {
      payment: { kind: 'paid', redirect: successUrlOf(session) },
      // Stripe sends the second one too, for the same purchase: it must not credit a second time.
      events: [
        ['checkout.session.completed', done],
        ['payment_intent.succeeded', intent],
      ],
    }
  }

  /** A setup-mode session completes with the card saved and nothing charged, as Stripe's setup intent does. */
  async function saved(
    tx: Tx,
    session: Session,
    customer: string,
    method: Method,
  ): Promise<{ payment: SandboxPayment; events: Outgoing[] }> {
    const intent: SetupIntent = {
      id: sandboxId('seti'),
      object: 'setup_intent',
      status: 'succeeded',
      customer,
      payment_method: method.id,
      metadata: { ...session.metadata, kind: 'card_setup' },
    }
    await writeObject(tx, intent)
    const done: Session = { ...session, status: 'complete', customer, setup_intent: intent.id, pending_card: null }
    await writeObject(tx, done)
    return {
      payment: { kind: 'paid', redirect: successUrlOf(session) },
      events: [
        ['checkout.session.completed', done],
        ['setup_intent.succeeded', intent],
      ],
    }
  }

  /**
   * One step on a session (a card submitted, a 3-D Secure answer) with its row locked: concurrent submits of
   * one session take turns, so the second finds it paid and charges nothing. Events are sent after commit.
   */
  async function onLockedSession(
    sessionId: string,
    step: (tx: Tx, session: Session) => Promise<{ payment: SandboxPayment; events?: Outgoing[] }>,
  ): Promise<SandboxPayment | undefined> {
    const db = await settings.db()
    const outcome = await db.transaction(async (tx) => {
      const session = await lockObject<Session>(tx, sessionId)
      return session?.object === 'checkout.session' ? step(tx, session) : undefined
    })
    if (!outcome) return undefined
    for (const [type, object] of outcome.events ?? []) await send(type, object)
    return outcome.payment
  }

  async function openSession(sessionId: string): Promise<{ db: Db; session: Session | undefined }> {
    const db = await settings.db()
    const session = await readObject<Session>(db, sessionId)
    return { db, session: session?.object === 'checkout.session' ? session : undefined }
  }

  const provider: PaymentProvider = {
    kind: 'sandbox',
    async createCheckout(request) {
      const db = await settings.db()
      const id = sandboxId('cs')
      const session: Session = {
        id,
        object: 'checkout.session',
        mode: 'payment',
        setup_intent: null,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: minorUnits(request.pack),
        currency: request.pack.currency.toLowerCase(),
        client_reference_id: request.keyId,
        customer: request.customerId ?? null,
        customer_email: request.email ?? null,
        metadata: { purchase_id: request.purchaseId, key_id: request.keyId },
        line_items: {
          data: [
            { price: { id: `price_sandbox_${request.pack.price_id}`, lookup_key: request.pack.price_id }, quantity: 1 },
          ],
        },
        payment_intent: null,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        save_card: request.saveCard,
        product: { name: request.pack.product_name, tokens: request.pack.token_quantity },
        pending_card: null,
        url: `${settings.baseUrl.replace(/\/$/, '')}/sandbox-checkout/${id}`,
      }
      await writeObject(db, session)
      return { id, url: session.url as string }
    },

    async createCardSetup(request) {
      const db = await settings.db()
      const id = sandboxId('cs')
      const session: Session = {
        id,
        object: 'checkout.session',
        mode: 'setup',
        status: 'open',
        payment_status: 'no_payment_required',
        amount_total: 0,
        currency: request.currency.toLowerCase(),
        client_reference_id: request.keyId,
        customer: request.customerId ?? null,
        customer_email: request.email ?? null,
        metadata: { card_setup_id: request.setupId, key_id: request.keyId },
        line_items: { data: [] },
        payment_intent: null,
        setup_intent: null,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        save_card: true,
        product: { name: '', tokens: 0 },
        pending_card: null,
        url: `${settings.baseUrl.replace(/\/$/, '')}/sandbox-checkout/${id}`,
      }
      await writeObject(db, session)
      return { id, url: session.url as string }
    },

    async setupFacts(sessionId) {
      const { db, session } = await openSession(sessionId)
      if (!session) throw new Error(`no sandbox session ${sessionId}`)
      const intent = session.setup_intent ? await readObject<SetupIntent>(db, session.setup_intent) : undefined
      const method = intent ? await readObject<Method>(db, intent.payment_method) : undefined
      return {
        id: session.id,
        status: session.status,
        setupIntentId: intent?.id ?? null,
        setupStatus: intent?.status === 'succeeded' ? 'succeeded' : 'other',
        customerId: session.customer,
        email: session.customer_email,
        card: method ? { paymentMethodId: method.id, ...method.card } : null,
      }
    },

    verifyEvent: (payload, signature) => readSignedEvent(signer.webhooks, crypto, payload, signature, settings.secret),

    async checkoutFacts(sessionId): Promise<CheckoutFacts> {
      const { db, session } = await openSession(sessionId)
      if (!session) throw new Error(`no sandbox session ${sessionId}`)
      const intent = session.payment_intent ? await readObject<Intent>(db, session.payment_intent) : undefined
      const method = intent?.payment_method ? await readObject<Method>(db, intent.payment_method) : undefined
      return {
        id: session.id,
        paymentStatus: session.payment_status,
        status: session.status,
        priceId: session.line_items.data[0]?.price.lookup_key ?? null,
        quantity: session.line_items.data.reduce((sum, line) => sum + line.quantity, 0),
        amountTotal: session.amount_total,
        currency: session.currency,
        paymentIntentId: session.payment_intent,
        customerId: session.customer,
        email: session.customer_email,
        card: method ? { paymentMethodId: method.id, ...method.card } : null,
        receiptUrl: null,
      }
    },

    async paymentIntentFacts(paymentIntentId): Promise<PaymentIntentFacts> {
      const db = await settings.db()
      const intent = await readObject<Intent>(db, paymentIntentId)
      if (!intent) throw new Error(`no sandbox payment intent ${paymentIntentId}`)
      const method = intent.payment_method ? await readObject<Method>(db, intent.payment_method) : undefined
      return {
        id: intent.id,
        status: intent.status,
        amount: intent.amount,
        currency: intent.currency,
        customerId: intent.customer,
        card: method ? { paymentMethodId: method.id, ...method.card } : null,
        receiptUrl: null,
      }
    },

    async chargeOffSession(request) {
      const db = await settings.db()
      const idempotency = `idem_auto-recharge-${request.attemptId}`
      const earlier = await readObject<SandboxObject & { payment_intent: string; outcome: unknown }>(db, idempotency)
      if (earlier) return earlier.outcome as Awaited<ReturnType<PaymentProvider['chargeOffSession']>>
      const method = await readObject<Method>(db, request.paymentMethodId)
      const succeeds = method?.test_card === 'succeeds'
      const intent: Intent = {
        id: sandboxId('pi'),
        object: 'payment_intent',
        status: succeeds ? 'succeeded' : 'requires_payment_method',
        amount: minorUnits(request.pack),
        currency: request.pack.currency.toLowerCase(),
        customer: request.customerId,
        payment_method: request.paymentMethodId,
        metadata: { kind: 'auto_recharge', attempt_id: request.attemptId, key_id: request.keyId },
      }
      await writeObject(db, intent)
      const outcome = succeeds
        ? ({ status: 'submitted', paymentIntentId: intent.id } as const)
        : method?.test_card === 'authenticate'
          ? ({
              status: 'authentication_required',
              paymentIntentId: intent.id,
              reason: 'This card needs the cardholder to authenticate the payment.',
            } as const)
          : ({ status: 'declined', paymentIntentId: intent.id, reason: 'Your card was declined.' } as const)
      await writeObject(db, { id: idempotency, object: 'idempotency_key', payment_intent: intent.id, outcome })
      later(succeeds ? 'payment_intent.succeeded' : 'payment_intent.payment_failed', intent)
      return outcome
    },
  }

  return {
    provider,

    /** The checkout page's view of a session, or undefined for none. */
    async view(sessionId: string): Promise<SandboxSessionView | undefined> {
      const { session } = await openSession(sessionId)
      if (!session) return undefined
      return {
        id: session.id,
        mode: session.mode ?? 'payment',
        status: session.status,
        product: session.product,
        amount: session.amount_total,
        currency: session.currency,
        email: session.customer_email,
        saveCard: session.save_card,
        awaitingAuthentication: session.pending_card !== null,
        cancelUrl: session.cancel_url,
        successUrl: successUrlOf(session),
      }
    },

    /** Pays a session with a test card, as Stripe's hosted page would; once, however many submits arrive. */
    pay: (sessionId: string, entry: CardEntry) =>
      onLockedSession(sessionId, async (tx, session) => {
        if (session.status === 'complete') return { payment: { kind: 'already_paid', redirect: successUrlOf(session) } }
        if (session.status !== 'open') return { payment: { kind: 'closed', redirect: successUrlOf(session) } }
        const email = session.customer_email ?? entry.email?.trim()
        if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254)
          return { payment: { kind: 'invalid', problem: 'email' } }
        const checked = checkCard(entry)
        if (!checked.ok) return { payment: { kind: 'invalid', problem: checked.problem } }
        session.customer_email = email
        if (checked.card === 'declined') return { payment: { kind: 'declined' } }
        if (checked.card === 'authenticate') {
          await writeObject(tx, { ...session, pending_card: { card: checked.card, last4: checked.last4 } })
          return { payment: { kind: 'authenticate' } }
        }
        return complete(tx, session, checked)
      }),

    /** The 3-D Secure step: approved, the payment completes; refused, the card is declined. */
    authenticate: (sessionId: string, approve: boolean) =>
      onLockedSession(sessionId, async (tx, session) => {
        if (session.status === 'complete') return { payment: { kind: 'already_paid', redirect: successUrlOf(session) } }
        if (session.status !== 'open' || !session.pending_card)
          return { payment: { kind: 'closed', redirect: session.cancel_url } }
        if (!approve) {
          await writeObject(tx, { ...session, pending_card: null })
          return { payment: { kind: 'declined' } }
        }
        return complete(tx, session, session.pending_card)
      }),

    /** Resolves once the events sent after charges have been delivered (tests wait for it). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
  }
}

export type Sandbox = ReturnType<typeof sandboxProvider>
