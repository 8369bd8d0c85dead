import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { CaptchaWidget } from '~/components/captcha-widget'
import { CaptchaError, useCaptcha } from '~/lib/captcha/use-captcha'
import { issueTrialKey, type IssuedKey } from '~/lib/issue-trial-key'

export type { IssuedKey }

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
      onKey(await issueTrialKey(await captcha.ensure()))
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
