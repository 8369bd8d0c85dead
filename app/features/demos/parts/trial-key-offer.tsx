import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { CaptchaWidget } from '~/features/dashboard/captcha/captcha-widget'
import { CaptchaError, useCaptcha } from '~/features/dashboard/captcha/use-captcha'
import { requestEmptyKey, requestTrialKey } from '~/features/dashboard/key.functions'
import { ApiError } from '~/lib/api-error'

export interface IssuedKey {
  apiKey: string
  /** The network had too many trial keys: the dashboard's fallback, a key with no tokens. */
  empty: boolean
}

/**
 * The dashboard's trial-key flow in place (captcha, then the same server functions), imported piece by
 * piece so the demo's chunk does not pull in the dashboard. The caller stores the key where the dashboard does.
 */
export function TrialKeyOffer({ onKey }: { onKey: (issued: IssuedKey) => void }) {
  const { t } = useLingui()
  const captcha = useCaptcha('new_key')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()

  const getKey = async () => {
    if (busy) return
    setBusy(true)
    setError(undefined)
    try {
      const payload = await captcha.ensure()
      try {
        onKey({ apiKey: (await requestTrialKey({ data: { captcha: payload } })).api_key, empty: false })
      } catch (failure) {
        if (!(failure instanceof ApiError && failure.code === 'resource-exhausted')) throw failure
        // The server checks the rate limit before spending the captcha, so the same answer still counts.
        onKey({ apiKey: (await requestEmptyKey({ data: { captcha: payload } })).api_key, empty: true })
      }
    } catch (failure) {
      // The widget itself says why a captcha failed.
      if (!(failure instanceof CaptchaError)) setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      captcha.reset()
      setBusy(false)
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <CaptchaWidget captcha={captcha} />
      <Button
        type="button"
        variant="secondary"
        data-testid="demo-get-trial-key"
        className="w-fit"
        onClick={getKey}
        disabled={busy || captcha.state === 'unsupported'}
        aria-busy={busy}
      >
        {busy ? <Trans>Getting your key…</Trans> : <Trans>Get trial key</Trans>}
      </Button>
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {t`Could not get a key: ${error}`}
        </p>
      )}
    </div>
  )
}
