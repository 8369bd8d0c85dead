import { Trans, useLingui } from '@lingui/react/macro'
import { TriangleAlertIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { CopyButton } from '../copy-button'

/** An endpoint's signing secret, just made: the one time it is shown. */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const { t } = useLingui()
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-md border border-primary/40 p-3"
      data-testid="webhook-secret"
    >
      <p className="text-sm font-medium">
        <Trans>The endpoint's signing secret. Copy it now:</Trans>
      </p>
      <div className="flex items-center gap-2">
        <code
          translate="no"
          data-testid="webhook-secret-value"
          className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all"
        >
          {secret}
        </code>
        <CopyButton value={secret} label={t`Copy the signing secret`} />
      </div>
      <p className="flex gap-2 text-sm text-muted-foreground">
        <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
        <Trans>
          It is shown only this once. Your receiver verifies each delivery's webhook-signature header with it (the
          standardwebhooks libraries do).
        </Trans>
      </p>
      <Button variant="outline" size="sm" className="w-fit" onClick={onDone}>
        <Trans>I have saved it</Trans>
      </Button>
    </div>
  )
}
