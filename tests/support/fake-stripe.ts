import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'

type Obj = Record<string, unknown>

/**
 * Stripe's API on loopback, for the few calls the stripe provider makes: prices by lookup key, checkout
 * sessions (create, retrieve with expansions), payment intents (retrieve; off-session create with an
 * idempotency key). Its webhooks are signed with the package's own test-header helper, as Stripe signs them.
 * Cards: `pm_card_visa` succeeds off-session, `pm_card_chargeDeclined` is declined, `pm_card_authenticationRequired`
 * needs authentication.
 */
export async function startFakeStripe(webhookSecret: string) {
  const prices: Record<string, { id: string; lookup_key: string; unit_amount: number }> = {
    price_tokens_1b: { id: 'price_1Fake1b', lookup_key: 'price_tokens_1b', unit_amount: 5000 },
    price_tokens_11b: { id: 'price_1Fake11b', lookup_key: 'price_tokens_11b', unit_amount: 50000 },
  }
  const sessions = new Map<string, Obj>()
  const intents = new Map<string, Obj>()
  const setupIntents = new Map<string, Obj>()
  const idempotent = new Map<string, { status: number; body: Obj }>()
  const requests: Array<{ method: string; path: string; form: Record<string, string>; auth: string | undefined }> = []
  let counter = 0
  const id = (prefix: string) => `${prefix}_fake${++counter}`

  const read = async (req: IncomingMessage) => {
    let text = ''
    for await (const chunk of req) text += chunk
    return Object.fromEntries(new URLSearchParams(text))
  }
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') })
    res.end(JSON.stringify(body))
  }
  const method = (pm: string) => ({
    id: pm,
    object: 'payment_method',
    card: { brand: 'visa', last4: pm === 'pm_card_visa' ? '4242' : '0002' },
  })
  const expandedIntent = (intent: Obj) => ({
    ...intent,
    payment_method: intent.payment_method ? method(intent.payment_method as string) : null,
    latest_charge: { id: `ch_for_${intent.id}`, receipt_url: `https://pay.stripe.example/receipts/${intent.id}` },
  })

  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://stripe.local')
    const form = req.method === 'POST' ? await read(req) : {}
    requests.push({ method: req.method!, path: url.pathname, form, auth: req.headers.authorization })
    if (req.headers.authorization !== 'Bearer sk_test_fake')
      return json(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } })
    if (req.method === 'GET' && url.pathname === '/v1/prices') {
      const key = url.searchParams.get('lookup_keys[0]') ?? url.searchParams.get('lookup_keys[]')
      const price = key ? prices[key] : undefined
      return json(res, 200, {
        object: 'list',
        data: price ? [{ object: 'price', active: true, ...price }] : [],
        has_more: false,
      })
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions' && form.mode === 'setup') {
      // Setup mode: no line items, a currency, and a setup intent once the card is entered.
      if (!form.currency)
        return json(res, 400, {
          error: { type: 'invalid_request_error', message: 'Missing required param: currency.' },
        })
      if (form['line_items[0][price]'])
        return json(res, 400, {
          error: { type: 'invalid_request_error', message: 'line_items is not allowed in setup mode' },
        })
      const session: Obj = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: 'setup',
        status: 'open',
        payment_status: 'no_payment_required',
        amount_total: null,
        currency: form.currency,
        client_reference_id: form.client_reference_id,
        customer: form.customer ?? null,
        customer_email: form.customer_email ?? null,
        metadata: { card_setup_id: form['metadata[card_setup_id]'], key_id: form['metadata[key_id]'] },
        setup_intent: null,
        payment_intent: null,
        url: `https://checkout.stripe.example/c/setup/${counter}`,
        form,
      }
      sessions.set(session.id as string, session)
      return json(res, 200, session)
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const price = Object.values(prices).find((p) => p.id === form['line_items[0][price]'])
      if (!price) return json(res, 400, { error: { type: 'invalid_request_error', message: 'No such price' } })
      const session: Obj = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: form.mode,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: price.unit_amount,
        currency: 'usd',
        client_reference_id: form.client_reference_id,
        customer: form.customer ?? null,
        customer_email: form.customer_email ?? null,
        metadata: { purchase_id: form['metadata[purchase_id]'], key_id: form['metadata[key_id]'] },
        line_items: {
          object: 'list',
          data: [{ price: { ...price, object: 'price' }, quantity: Number(form['line_items[0][quantity]']) }],
        },
        payment_intent: null,
        url: `https://checkout.stripe.example/c/pay/${counter}`,
        form,
      }
      sessions.set(session.id as string, session)
      return json(res, 200, session)
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(url.pathname)
    if (req.method === 'GET' && sessionMatch) {
      const session = sessions.get(sessionMatch[1])
      if (!session) return json(res, 404, { error: { type: 'invalid_request_error', message: 'No such session' } })
      const intent = session.payment_intent ? intents.get(session.payment_intent as string) : undefined
      const setup = session.setup_intent ? setupIntents.get(session.setup_intent as string) : undefined
      const expand = [...url.searchParams].filter(([name]) => name.startsWith('expand')).map(([, value]) => value)
      return json(res, 200, {
        ...session,
        payment_intent: intent ? expandedIntent(intent) : null,
        setup_intent:
          setup && expand.some((e) => e.startsWith('setup_intent'))
            ? { ...setup, payment_method: method(setup.payment_method as string) }
            : (session.setup_intent ?? null),
      })
    }
    const intentMatch = /^\/v1\/payment_intents\/([\w]+)$/.exec(url.pathname)
    if (req.method === 'GET' && intentMatch) {
      const intent = intents.get(intentMatch[1])
      if (!intent)
        return json(res, 404, { error: { type: 'invalid_request_error', message: 'No such payment_intent' } })
      return json(res, 200, expandedIntent(intent))
    }
    if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
      const key = req.headers['idempotency-key'] as string | undefined
      const earlier = key ? idempotent.get(key) : undefined
      if (earlier) return json(res, earlier.status, earlier.body)
      const pm = form.payment_method
      const ok = pm === 'pm_card_visa'
      const intent: Obj = {
        id: id('pi'),
        object: 'payment_intent',
        amount: Number(form.amount),
        currency: form.currency,
        customer: form.customer,
        payment_method: pm,
        status: ok ? 'succeeded' : 'requires_payment_method',
        metadata: {
          kind: form['metadata[kind]'],
          attempt_id: form['metadata[attempt_id]'],
          key_id: form['metadata[key_id]'],
        },
      }
      intents.set(intent.id as string, intent)
      const answer = ok
        ? { status: 200, body: intent }
        : {
            status: 402,
            body: {
              error: {
                type: 'card_error',
                code: pm === 'pm_card_authenticationRequired' ? 'authentication_required' : 'card_declined',
                message:
                  pm === 'pm_card_authenticationRequired'
                    ? 'This payment requires authentication.'
                    : 'Your card was declined.',
                payment_intent: intent,
              },
            },
          }
      if (key) idempotent.set(key, answer)
      return json(res, answer.status, answer.body)
    }
    json(res, 404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` },
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const signer = new Stripe('sk_test_signer')

  /** An event as Stripe would POST it to the webhook, signed with the endpoint's secret. */
  function event(type: string, object: Obj) {
    const payload = JSON.stringify({
      id: id('evt'),
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      data: { object },
    })
    return { payload, signature: signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }) }
  }

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    /** The buyer paid the session's checkout (with a card the customer keeps, `pm_card_visa`): the event Stripe sends. */
    paySession(sessionId: string, options: { email?: string; paymentMethod?: string } = {}) {
      const session = sessions.get(sessionId)!
      const intent: Obj = {
        id: id('pi'),
        object: 'payment_intent',
        amount: session.amount_total,
        currency: session.currency,
        customer: session.customer ?? id('cus'),
        payment_method: options.paymentMethod ?? 'pm_card_visa',
        status: 'succeeded',
        metadata: { kind: 'checkout', purchase_id: (session.metadata as Obj).purchase_id },
      }
      intents.set(intent.id as string, intent)
      Object.assign(session, {
        status: 'complete',
        payment_status: 'paid',
        payment_intent: intent.id,
        customer: intent.customer,
        customer_details: { email: options.email ?? session.customer_email ?? 'buyer@example.com' },
      })
      return {
        completed: event('checkout.session.completed', session),
        succeeded: event('payment_intent.succeeded', intent),
      }
    },
    /** The visitor saved a card on a setup-mode checkout: the session completes with a succeeded setup intent. */
    completeSetup(sessionId: string, options: { email?: string; paymentMethod?: string } = {}) {
      const session = sessions.get(sessionId)!
      const customer = (session.customer as string | null) ?? id('cus')
      const setup: Obj = {
        id: id('seti'),
        object: 'setup_intent',
        status: 'succeeded',
        customer,
        payment_method: options.paymentMethod ?? 'pm_card_visa',
        metadata: { ...(session.metadata as Obj), kind: 'card_setup' },
      }
      setupIntents.set(setup.id as string, setup)
      Object.assign(session, {
        status: 'complete',
        setup_intent: setup.id,
        customer,
        customer_details: { email: options.email ?? session.customer_email ?? 'saver@example.com' },
      })
      return {
        completed: event('checkout.session.completed', session),
        succeeded: event('setup_intent.succeeded', setup),
      }
    },
    intents,
    event,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
