import { Trans, useLingui } from '@lingui/react/macro'
import { KeyRound } from 'lucide-react'
import { useState } from 'react'
import { LocalizedLink } from '~/components/site/localized-link'
import { maskKey } from '~/features/dashboard/format'
import { setApiKey } from '~/features/dashboard/use-api-key'
import { constants } from '../../../../app.config'
import { TrialKeyOffer } from './trial-key-offer'

/**
 * Which key the demo runs with: the one the dashboard stored, or, without one, a trial key taken in
 * place and stored in the same place, so the dashboard shows it afterwards.
 */
export function DemoKey({ apiKey, required }: { apiKey: string | null; required: boolean }) {
  const { i18n } = useLingui()
  const [issued, setIssued] = useState<'trial' | 'empty'>()
  const pack = i18n.number(constants.freePackTokens)

  if (apiKey) {
    return (
      <div data-testid="demo-key" className="flex flex-col gap-2 text-sm">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <KeyRound aria-hidden className="size-4 text-muted-foreground" />
          <span className="text-muted-foreground">
            <Trans>Runs with your API key</Trans>
          </span>
          <code translate="no" className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
            {maskKey(apiKey)}
          </code>
          <LocalizedLink
            to="/{-$locale}/api-dashboard/{-$tab}"
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            <Trans>Manage in the dashboard</Trans>
          </LocalizedLink>
        </p>
        {issued === 'trial' && (
          <p role="status" className="text-success">
            <Trans>
              Your trial key is ready with {pack} free tokens. It is stored in this browser, and the dashboard shows it.
            </Trans>
          </p>
        )}
        {issued === 'empty' && (
          <p role="status" className="text-destructive">
            <Trans>
              Too many trial keys were requested from your network, so this key starts with 0 tokens. Buy a pack or
              transfer a balance to use it.
            </Trans>
          </p>
        )}
      </div>
    )
  }

  return (
    <div data-testid="demo-no-key" className="flex flex-col gap-3 rounded-lg border border-dashed bg-muted/30 p-4">
      <p className="text-sm">
        {required ? (
          <Trans>
            This demo runs on your own API key. Get a free trial key here: it comes with {pack} tokens, no sign-up
            needed.
          </Trans>
        ) : (
          <Trans>No key needed to try it. A free trial key raises your rate limit and comes with {pack} tokens.</Trans>
        )}
      </p>
      <TrialKeyOffer
        onKey={({ apiKey: key, empty }) => {
          setApiKey(key)
          setIssued(empty ? 'empty' : 'trial')
        }}
      />
    </div>
  )
}
