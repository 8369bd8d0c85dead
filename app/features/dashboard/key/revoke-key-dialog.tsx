import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { BanIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '~/components/ui/dialog'
import { CaptchaWidget } from '~/components/captcha-widget'
import { CaptchaError, useCaptcha } from '~/lib/captcha/use-captcha'
import { forgetKeyData, revokeKeyMutation } from '../queries'
import { setApiKey } from '~/lib/use-api-key'
import { notify } from '~/features/dashboard/notify'

export function RevokeKeyDialog({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="destructive" data-testid="revoke-key">
          <BanIcon aria-hidden="true" />
          <Trans>Revoke key</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`}>
        {/* Mounted only while open, so the captcha starts fresh each time. */}
        {open && <RevokeForm apiKey={apiKey} onDone={() => setOpen(false)} />}
      </DialogContent>
    </Dialog>
  )
}

function RevokeForm({ apiKey, onDone }: { apiKey: string; onDone: () => void }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const captcha = useCaptcha('revoke_key')
  const revoke = useMutation(revokeKeyMutation())

  const submit = async () => {
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
    onDone()
    notify.success(t`The key was revoked. It no longer works anywhere.`)
  }

  return (
    <>
      <DialogHeader>
        <DialogTitle>
          <Trans>Revoke this API key?</Trans>
        </DialogTitle>
        <DialogDescription>
          <Trans>
            Every request with this key will be refused from now on, and its remaining tokens can no longer be used. To
            keep the tokens, transfer them to another key first. This cannot be undone.
          </Trans>
        </DialogDescription>
      </DialogHeader>
      <CaptchaWidget captcha={captcha} />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">
            <Trans>Cancel</Trans>
          </Button>
        </DialogClose>
        <Button
          variant="destructive"
          onClick={submit}
          disabled={revoke.isPending || captcha.state === 'loading'}
          data-testid="confirm-revoke-key"
        >
          <Trans>Revoke key</Trans>
        </Button>
      </DialogFooter>
    </>
  )
}
