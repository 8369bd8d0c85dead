import { Trans, useLingui } from '@lingui/react/macro'
import { dashboardChallenge } from './key-service'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { BanIcon } from 'lucide-react'
import { CaptchaWidget } from '~/components/captcha-widget'
import { ConfirmDialog, ConfirmPanel } from '~/components/confirm-dialog'
import { Button } from '~/components/ui/button'
import { CaptchaError, useCaptcha } from '~/lib/captcha/use-captcha'
import { setApiKey } from '~/lib/use-api-key'
import { notify } from '../notify'
import { forgetKeyData, revokeKeyMutation } from '../queries'

export function RevokeKeyDialog({ apiKey }: { apiKey: string }) {
  return (
    // Fresh: the panel mounts only while open, so the captcha starts anew each time.
    <ConfirmDialog
      fresh
      trigger={
        <Button variant="destructive" data-testid="revoke-key">
          <BanIcon aria-hidden="true" />
          <Trans>Revoke key</Trans>
        </Button>
      }
    >
      <RevokePanel apiKey={apiKey} />
    </ConfirmDialog>
  )
}

function RevokePanel({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const captcha = useCaptcha('revoke_key', dashboardChallenge)
  const revoke = useMutation(revokeKeyMutation())

  const submit = async (close: () => void) => {
    let payload: string
    try {
      payload = await captcha.ensure()
    } catch (error) {
      if (!(error instanceof CaptchaError)) throw error
      return
    }
    try {
      await revoke.mutateAsync({ apiKey, captcha: payload })
    } catch {
      captcha.reset()
      return
    }
    // Forget the key before dropping its data, so nothing asks the server about a revoked key again.
    setApiKey(null)
    forgetKeyData(queryClient, apiKey)
    close()
    notify.success(t`The key was revoked. It no longer works anywhere.`)
  }

  return (
    <ConfirmPanel
      title={<Trans>Revoke this API key?</Trans>}
      description={
        <Trans>
          Every request with this key will be refused from now on, and its remaining tokens can no longer be used. To
          keep the tokens, transfer them to another key first. This cannot be undone.
        </Trans>
      }
      confirmLabel={<Trans>Revoke key</Trans>}
      onConfirm={(close) => void submit(close)}
      destructive
      busy={revoke.isPending || captcha.state === 'loading'}
      confirmTestId="confirm-revoke-key"
    >
      <CaptchaWidget captcha={captcha} />
    </ConfirmPanel>
  )
}
