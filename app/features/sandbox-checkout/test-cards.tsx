import { Trans, useLingui } from '@lingui/react/macro'
import { testCards, type TestCard } from '~/contracts/sandbox-cards'

/** Stripe's test cards the sandbox takes, with what each does; choosing one fills the form. */
export function TestCards({ choose }: { choose: (number: string) => void }) {
  const { t } = useLingui()
  const meaning: Record<TestCard, string> = {
    succeeds: t`Succeeds, now and for auto-recharge.`,
    declined: t`Declined.`,
    authenticate: t`Asks for 3-D Secure authentication; auto-recharge cannot charge it.`,
    declinesLater: t`Succeeds now; auto-recharge charges are declined.`,
  }
  return (
    <section aria-labelledby="test-cards-title" className="flex flex-col gap-2 text-sm">
      <h2 id="test-cards-title" className="font-medium">
        <Trans>Test cards</Trans>
      </h2>
      <ul className="flex flex-col gap-1">
        {(Object.keys(testCards) as TestCard[]).map((name) => (
          <li key={name} className="flex flex-wrap items-baseline gap-x-2">
            <button
              type="button"
              className="font-mono underline-offset-4 hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
              onClick={() => choose(testCards[name])}
              data-testid={`test-card-${name}`}
            >
              {testCards[name].replace(/(\d{4})(?=\d)/g, '$1 ')}
            </button>
            <span className="text-muted-foreground">{meaning[name]}</span>
          </li>
        ))}
      </ul>
      <p className="text-muted-foreground">
        <Trans>Any future expiry date and any three-digit CVC.</Trans>
      </p>
    </section>
  )
}
