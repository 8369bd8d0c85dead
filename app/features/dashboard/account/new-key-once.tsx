import { Trans, useLingui } from '@lingui/react/macro'
import { TriangleAlertIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { CopyButton } from '../copy-button'

/**
 * A key just created, in full with a copy button; the account keeps it sealed, so it can be shown again later.
 * It is put into use in this browser only by its button (`onUse`), never by being created.
 */
export function NewKeyOnce({
  apiKey,
  name,
  onDone,
  onUse,
  inUse = false,
}: {
  apiKey: string
  name: string | null
  onDone: () => void
  onUse?: (label: string) => void
  inUse?: boolean
}) {
  const { t } = useLingui()
  const label = name ?? t`Unnamed key`
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-md border border-primary/40 p-3"
      data-testid="new-key-once"
    >
      <p className="text-sm font-medium">
        <Trans>{label} is ready. Copy it now:</Trans>
      </p>
      <div className="flex items-center gap-2">
        <code
          translate="no"
          data-testid="new-key-value"
          className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all"
        >
          {apiKey}
        </code>
        <CopyButton value={apiKey} label={t`Copy the new key`} testId="copy-new-key" />
      </div>
      <p className="flex gap-2 text-sm text-muted-foreground">
        <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
        <Trans>
          Your account keeps it: you can show it again on any device where you sign in, and each time is recorded in the
          audit log. Anyone who has it can spend its tokens: keep it like a password, never in code you publish.
        </Trans>
      </p>
      <div className="flex flex-wrap gap-2">
        {onUse && !inUse && (
          <Button size="sm" className="w-fit" onClick={() => onUse(label)} data-testid="use-new-key">
            <Trans>Use in this browser</Trans>
          </Button>
        )}
        <Button variant="outline" size="sm" className="w-fit" onClick={onDone} data-testid="new-key-done">
          <Trans>I have saved it</Trans>
        </Button>
      </div>
    </div>
  )
}
