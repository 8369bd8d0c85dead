import { Trans } from '@lingui/react/macro'
import { KeyRound } from 'lucide-react'
import { LocalizedLink } from '~/components/site/localized-link'
import { maskKey } from '~/lib/format'

/** One line above Run saying which key the demo sends; the offer of a key, when there is none, is in the answer panel. */
export function KeyLine({ apiKey, required }: { apiKey: string | null; required: boolean }) {
  return (
    <p
      data-testid="demo-key"
      data-has-key={Boolean(apiKey)}
      className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm"
    >
      <KeyRound aria-hidden className="size-4 text-muted-foreground" />
      {apiKey ? (
        <>
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
        </>
      ) : (
        <span className="text-muted-foreground">
          {required ? <Trans>No API key in this browser yet.</Trans> : <Trans>Works without an API key.</Trans>}
        </span>
      )}
    </p>
  )
}
