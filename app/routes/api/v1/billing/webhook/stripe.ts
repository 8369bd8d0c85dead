import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { paymentProvider } from '~/server/api/payments/provider'
import { receiveWebhook } from '~/server/api/payments/webhook'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/billing/webhook/stripe')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: "Stripe's webhook (and the sandbox's, in the same shape)",
          description:
            'The raw body is checked against the `Stripe-Signature` header (400 when missing, wrong, older than five minutes or dated more than a minute ahead; nothing is done). A signed body that is not an event (no `evt_…` id, no `data.object`, text that cannot be stored) gets 400 and is recorded as failed. Acts on `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.async_payment_failed`, `checkout.session.expired`, `payment_intent.succeeded`, `payment_intent.payment_failed`, `charge.refunded` and `charge.dispute.created`; each purchase is credited once whatever arrives.',
          auth: 'none',
          answer: v.object({ received: v.literal(true) }),
          errors: [400, 501],
        },
        async ({ request, caller }) =>
          receiveWebhook(caller, paymentProvider(), await request.text(), request.headers.get('stripe-signature')),
      ),
    },
  },
})
