import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQuery } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { FlaskConicalIcon } from 'lucide-react'
import { useState } from 'react'
import { Button, buttonVariants } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import type { CardEntry } from '~/contracts/sandbox-cards'
import { brand } from '#config'
import { isPaymentsUnavailable, usePaymentErrorMessage } from '~/lib/payment-error'
import { useFormat } from '~/lib/format'
import { CardForm } from './card-form'
import { authenticateSandboxSession, fetchSandboxSession, paySandboxSession } from './sandbox.functions'
import { TestCards } from './test-cards'
import { useCardProblem } from './use-card-problem'

const route = getRouteApi('/{-$locale}/sandbox-checkout/$session')
type Payment = Awaited<ReturnType<typeof paySandboxSession>>

/**
 * The sandbox's checkout: what Stripe's hosted page does, in test mode, labelled as such. Paying sends the
 * payment's events to the app's webhook and the buyer back to the dashboard.
 */
export function SandboxCheckoutPage() {
  const { t } = useLingui()
  const format = useFormat()
  const describe = useCardProblem()
  const paymentError = usePaymentErrorMessage()
  const { session } = route.useParams()
  const view = useQuery({
    queryKey: ['sandbox-checkout', session],
    queryFn: ({ signal }) => fetchSandboxSession({ data: { session_id: session }, signal }),
    retry: false,
  })
  const [entry, setEntry] = useState<CardEntry>({ email: '', number: '', expiry: '', cvc: '' })
  const [error, setError] = useState<string>()
  const [authenticating, setAuthenticating] = useState(false)
  const outcome = (payment: Payment) => {
    // Paid now, or by another submit of this session (a second tab, a double click): the dashboard shows it.
    if (payment.kind === 'paid' || payment.kind === 'already_paid' || payment.kind === 'closed')
      return window.location.assign(payment.redirect)
    setAuthenticating(payment.kind === 'authenticate')
    if (payment.kind === 'declined') setError(t`Your card was declined. Try another test card.`)
    else if (payment.kind === 'invalid') setError(describe(payment.problem))
    else setError(undefined)
  }
  const pay = useMutation({
    mutationFn: (card: CardEntry) => paySandboxSession({ data: { session_id: session, ...card } }),
    onSuccess: outcome,
    onError: (failure) => setError(paymentError(failure)),
  })
  const authenticate = useMutation({
    mutationFn: (approve: boolean) => authenticateSandboxSession({ data: { session_id: session, approve } }),
    onSuccess: outcome,
    onError: (failure) => setError(paymentError(failure)),
  })

  return (
    <main id="main" className="mx-auto flex min-h-screen max-w-lg flex-col gap-6 px-4 py-8">
      <div
        role="note"
        className="flex items-start gap-2 rounded-md border border-dashed bg-accent px-3 py-2 text-sm"
        data-testid="sandbox-banner"
      >
        <FlaskConicalIcon aria-hidden="true" className="size-4 shrink-0 translate-y-0.5" />
        <Trans>
          Sandbox checkout (test mode): no real card is charged and no money moves. Tokens bought here are real on this
          server.
        </Trans>
      </div>
      <h1 className="text-2xl font-semibold tracking-tight">
        {view.data?.mode === 'setup' ? <Trans>A card for {brand.name}</Trans> : <Trans>Pay {brand.name}</Trans>}
      </h1>
      {view.isPending ? (
        <Skeleton className="h-96 w-full rounded-xl" />
      ) : view.isError ? (
        <p role="alert" className="text-sm text-muted-foreground" data-testid="sandbox-error">
          {isPaymentsUnavailable(view.error) ? (
            paymentError(view.error)
          ) : (
            <Trans>This checkout does not exist ({view.error.message}).</Trans>
          )}
        </p>
      ) : view.data.status !== 'open' ? (
        <Card>
          <CardHeader>
            <CardTitle>
              <Trans>This checkout is closed.</Trans>
            </CardTitle>
          </CardHeader>
          <CardContent>
            <a
              className={buttonVariants()}
              href={view.data.status === 'complete' ? view.data.successUrl : view.data.cancelUrl}
            >
              <Trans>Back to the dashboard</Trans>
            </a>
          </CardContent>
        </Card>
      ) : (
        <Card aria-labelledby="order-title">
          <CardHeader>
            {view.data.mode === 'setup' ? (
              <>
                <CardTitle id="order-title" data-testid="sandbox-amount">
                  <Trans>Save a card for auto-recharge</Trans>
                </CardTitle>
                <CardDescription>
                  <Trans>Nothing is charged now: the card is charged only when auto-recharge buys a pack.</Trans>
                </CardDescription>
              </>
            ) : (
              <>
                <CardTitle id="order-title" data-testid="sandbox-amount">
                  {format.money(view.data.amount / 100, view.data.currency.toUpperCase())}
                </CardTitle>
                {/* One message with the card's note, so the item reads as its own sentence before it. */}
                <CardDescription data-testid="sandbox-item">
                  {view.data.saveCard ? (
                    <Trans>
                      {format.tokens(view.data.product.tokens)} API tokens. Your card is kept for auto-recharge, which
                      charges it only once you turn it on.
                    </Trans>
                  ) : (
                    <Trans>{format.tokens(view.data.product.tokens)} API tokens</Trans>
                  )}
                </CardDescription>
              </>
            )}
          </CardHeader>
          <CardContent className="flex flex-col gap-6">
            {authenticating ? (
              <div className="flex flex-col gap-3" data-testid="sandbox-3ds">
                <p className="text-sm">
                  <Trans>Your bank asks you to confirm this payment (3-D Secure, simulated).</Trans>
                </p>
                {error && (
                  <p role="alert" className="text-sm text-destructive">
                    {error}
                  </p>
                )}
                <div className="flex flex-wrap gap-2">
                  <Button
                    disabled={authenticate.isPending}
                    onClick={() => authenticate.mutate(true)}
                    data-testid="sandbox-approve"
                  >
                    <Trans>Confirm the payment</Trans>
                  </Button>
                  <Button
                    variant="outline"
                    disabled={authenticate.isPending}
                    onClick={() => authenticate.mutate(false)}
                  >
                    <Trans>Refuse</Trans>
                  </Button>
                </div>
              </div>
            ) : (
              <CardForm
                askEmail={!view.data.email}
                entry={entry}
                onChange={setEntry}
                pay={(card) => pay.mutate(card)}
                busy={pay.isPending}
                saveOnly={view.data.mode === 'setup'}
                error={error}
              />
            )}
            <TestCards
              choose={(number) =>
                setEntry({ ...entry, number, expiry: entry.expiry || '12/34', cvc: entry.cvc || '123' })
              }
            />
            <a className="text-sm underline underline-offset-4" href={view.data.cancelUrl} data-testid="sandbox-cancel">
              <Trans>Cancel and go back</Trans>
            </a>
          </CardContent>
        </Card>
      )}
    </main>
  )
}
