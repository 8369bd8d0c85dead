import { Trans, useLingui } from '@lingui/react/macro'
import { CheckIcon, LoaderCircleIcon, RotateCwIcon, TriangleAlertIcon } from 'lucide-react'
import { useId } from 'react'
import { cn } from '~/lib/utils'
import type { Captcha } from '~/lib/captcha/use-captcha'

/**
 * The ALTCHA widget: a checkbox-like button that runs the proof of work. `data-state` carries the
 * spec §4 state for tests; the text next to it says the same thing to people.
 */
export function CaptchaWidget({ captcha, className }: { captcha: Captcha; className?: string }) {
  const { t } = useLingui()
  const { state } = captcha
  const statusId = useId()
  const checked = state === 'loaded'
  const busy = state === 'loading'
  const disabled = state === 'unloaded' || state === 'unsupported' || state === 'cleanup' || busy || checked
  const status: Record<typeof state, string> = {
    unloaded: t`Preparing verification…`,
    idle: t`Not verified yet`,
    loading: t`Verifying…`,
    loaded: t`Verified`,
    error: t`Verification failed. Try again.`,
    unsupported: t`Your browser cannot run the verification (Web Crypto is unavailable; use HTTPS or a current browser).`,
    expired: t`Verification expired. Verify again.`,
    cleanup: t`Verification stopped`,
  }
  const retry = state === 'error' || state === 'expired'

  return (
    <div
      data-testid="captcha"
      data-state={state}
      aria-busy={busy}
      className={cn('flex w-full max-w-sm items-center gap-3 rounded-md border bg-card px-3 py-2.5', className)}
    >
      <button
        type="button"
        role="checkbox"
        aria-checked={checked}
        aria-describedby={statusId}
        disabled={disabled}
        onClick={() => {
          captcha.ensure().catch(() => {})
        }}
        className={cn(
          'flex size-6 shrink-0 items-center justify-center rounded border-2 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-default',
          checked ? 'border-success bg-success text-background' : 'border-input',
        )}
      >
        {busy && <LoaderCircleIcon aria-hidden="true" className="size-4 animate-spin" />}
        {checked && <CheckIcon aria-hidden="true" className="size-4" />}
        <span className="sr-only">{t`I'm not a robot`}</span>
      </button>
      <div className="flex min-w-0 flex-1 flex-col">
        <span aria-hidden="true" className="text-sm font-medium">
          <Trans>I'm not a robot</Trans>
        </span>
        <span
          id={statusId}
          aria-live="polite"
          className={cn(
            'text-xs',
            state === 'error' || state === 'unsupported' ? 'text-destructive' : 'text-muted-foreground',
          )}
        >
          {(state === 'error' || state === 'unsupported') && (
            <TriangleAlertIcon aria-hidden="true" className="mr-1 inline size-3" />
          )}
          {status[state]}
        </span>
      </div>
      {retry && (
        <button
          type="button"
          onClick={() => {
            captcha.reset()
            captcha.ensure().catch(() => {})
          }}
          className="inline-flex items-center gap-1 rounded px-2 py-1 text-xs font-medium text-primary hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        >
          <RotateCwIcon aria-hidden="true" className="size-3" />
          <Trans>Retry</Trans>
        </button>
      )}
      <span className="text-[10px] text-muted-foreground">ALTCHA</span>
    </div>
  )
}
