import { Trans } from '@lingui/react/macro'
import { FlaskConical } from 'lucide-react'

/** Reserves the live demo's place; it says plainly that the demo is not there yet rather than faking one. */
export function DemoPlaceholder({ productLabel }: { productLabel: string }) {
  return (
    <div className="flex min-h-64 flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed bg-muted/30 p-8 text-center">
      <FlaskConical aria-hidden className="size-8 text-muted-foreground" />
      <p className="text-lg font-semibold">
        <Trans>Live demo coming soon</Trans>
      </p>
      <p className="max-w-md text-sm text-muted-foreground">
        <Trans>
          An interactive {productLabel} demo will run here. Until then, try the API with the code samples below and the
          free tokens of a new key.
        </Trans>
      </p>
    </div>
  )
}
