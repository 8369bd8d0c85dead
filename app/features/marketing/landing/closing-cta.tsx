import { Trans, useLingui } from '@lingui/react/macro'
import { LocalizedLink } from '~/components/site/localized-link'
import { Button } from '~/components/ui/button'
import { constants } from '#config'

export function ClosingCallToAction() {
  const { i18n } = useLingui()
  const tokens = i18n.number(constants.freePackTokens)
  return (
    <section aria-labelledby="start-title" className="mx-auto max-w-6xl px-4 pt-16">
      <div className="flex flex-col items-start gap-6 rounded-2xl bg-primary px-6 py-10 text-primary-foreground sm:flex-row sm:items-center sm:justify-between sm:px-10">
        <div>
          <h2 id="start-title" className="text-2xl font-semibold tracking-tight">
            <Trans>Start building today</Trans>
          </h2>
          <p className="mt-2 max-w-xl">
            <Trans>Every new key comes with {tokens} free tokens. No credit card, no sign-up.</Trans>
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button asChild size="lg" variant="secondary">
            <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}">
              <Trans>Get a free API key</Trans>
            </LocalizedLink>
          </Button>
          <Button asChild size="lg" variant="onPrimary">
            <LocalizedLink to="/{-$locale}/contact-sales">
              <Trans>Contact sales</Trans>
            </LocalizedLink>
          </Button>
        </div>
      </div>
    </section>
  )
}
