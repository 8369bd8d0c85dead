import { Trans, useLingui } from '@lingui/react/macro'
import { dashboardChallenge, dashboardIssue } from './key-service'
import { SparklesIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { CaptchaWidget } from '~/components/captcha-widget'
import { CaptchaError, useCaptcha } from '~/lib/captcha/use-captcha'
import { useFormat, freePackTokens } from '~/lib/format'
import { toastError } from '../queries'
import { useOpenTab } from '../use-open-tab'
import { markEmptyKey } from './empty-key-notice'
import { issueTrialKey } from '~/lib/issue-trial-key'
import { notify } from '~/features/dashboard/notify'

/** Spec §4: a trial key; on 429 the fallback is an empty (zero-token) key, other failures show the error. */
export function TrialKeyCard({ onKey }: { onKey: (apiKey: string) => void }) {
  const { t } = useLingui()
  const format = useFormat()
  const captcha = useCaptcha('new_key', dashboardChallenge)
  const [busy, setBusy] = useState(false)
  const pack = format.tokens(freePackTokens)
  const openTab = useOpenTab()

  const getKey = async () => {
    setBusy(true)
    try {
      const issued = await issueTrialKey(await captcha.ensure(), dashboardIssue)
      if (issued.empty) markEmptyKey(issued.apiKey)
      onKey(issued.apiKey)
      if (issued.empty)
        notify.warning(
          t`Too many trial keys were requested from your network, so this key starts with 0 tokens. Buy a pack or transfer a balance to use it.`,
          undefined,
          { label: t`Buy tokens`, onClick: () => openTab('billing') },
        )
      else notify.success(t`Your trial key is ready with ${pack} free tokens.`)
    } catch (error) {
      if (!(error instanceof CaptchaError)) toastError(error)
    } finally {
      captcha.reset()
      setBusy(false)
    }
  }

  return (
    <Card aria-labelledby="trial-title">
      <CardHeader>
        <CardTitle id="trial-title" className="flex items-center gap-2">
          <SparklesIcon aria-hidden="true" className="size-5 text-primary" />
          <Trans>Get a free trial key</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>A new key comes with {pack} free tokens for every API. No sign-up needed.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <CaptchaWidget captcha={captcha} />
        <Button
          data-testid="get-trial-key"
          className="w-fit"
          onClick={getKey}
          disabled={busy || captcha.state === 'unsupported'}
          aria-busy={busy}
        >
          {busy ? <Trans>Getting your key…</Trans> : <Trans>Get trial key</Trans>}
        </Button>
      </CardContent>
    </Card>
  )
}
