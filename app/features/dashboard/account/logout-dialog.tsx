import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { LogOutIcon, TriangleAlertIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { ConfirmDialog, ConfirmPanel, useCloseDialog } from '~/components/confirm-dialog'
import { DialogFooter } from '~/components/ui/dialog'
import { useAuth } from '~/lib/auth/auth-context'
import { CaptchaWidget } from '~/components/captcha-widget'
import { maskKey, useFormat } from '~/lib/format'
import { notify } from '../notify'
import { setApiKey } from '~/lib/use-api-key'
import { useClaimBrowserKey, useUnclaimedBrowserKey, type UnclaimedKey } from './use-browser-key'

/**
 * Spec §4 logout for a signed-in user: confirm, then clear the user, sign out and show a success notice. A key
 * in this browser that the account lacks would be lost with it, so the dialog names it and offers to add it first.
 */
export function LogoutDialog() {
  // Read before the dialog opens, so it opens with the warning already there.
  const unclaimed = useUnclaimedBrowserKey()
  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" size="sm" data-testid="sign-out">
          <LogOutIcon aria-hidden="true" />
          <Trans>Sign out</Trans>
        </Button>
      }
    >
      <LogoutPanel unclaimed={unclaimed} />
    </ConfirmDialog>
  )
}

function LogoutPanel({ unclaimed }: { unclaimed: UnclaimedKey | null | undefined }) {
  const { t } = useLingui()
  const { signOut } = useAuth()
  const queryClient = useQueryClient()
  const close = useCloseDialog()
  const [busy, setBusy] = useState(false)

  const logOut = async () => {
    setBusy(true)
    // The user's key and everything read with it leave this browser; the account keeps them.
    setApiKey(null)
    await signOut()
    queryClient.removeQueries({ queryKey: ['dashboard'] })
    queryClient.removeQueries({ queryKey: ['account'] })
    setBusy(false)
    close()
    notify.success(t`Signed out. Your keys stay in your account.`)
  }

  return (
    <ConfirmPanel
      title={<Trans>Sign out of the dashboard?</Trans>}
      description={<Trans>This browser forgets your key and your account. Sign in again to use them here.</Trans>}
      footer={unclaimed && <UnclaimedWarning unclaimed={unclaimed} busy={busy} onSignOut={logOut} />}
      confirmLabel={<Trans>Sign out</Trans>}
      onConfirm={() => void logOut()}
      busy={busy}
      confirmTestId="confirm-sign-out"
      autoFocus
    />
  )
}

function UnclaimedWarning({
  unclaimed,
  busy,
  onSignOut,
}: {
  unclaimed: UnclaimedKey
  busy: boolean
  onSignOut: () => Promise<void>
}) {
  const format = useFormat()
  const claiming = useClaimBrowserKey(unclaimed)
  const masked = unclaimed.name ? `${unclaimed.name} · ${maskKey(unclaimed.apiKey)}` : maskKey(unclaimed.apiKey)
  const tokens = format.tokens(unclaimed.balance)
  const addThenSignOut = async () => {
    if (await claiming.claim()) await onSignOut()
  }
  return (
    <>
      <div
        role="alert"
        className="flex gap-2 rounded-md border border-destructive/50 p-3 text-sm"
        data-testid="unclaimed-key-warning"
      >
        <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
        <p>
          <Trans>
            The key{' '}
            <code translate="no" className="font-mono break-all">
              {masked}
            </code>{' '}
            in this browser, with {tokens} tokens, is not in your account. Signing out removes it from this browser: add
            it to your account first, or copy it if you mean to keep it elsewhere.
          </Trans>
        </p>
      </div>
      <CaptchaWidget captcha={claiming.captcha} />
      <DialogFooter>
        <Button
          variant="outline"
          onClick={() => void onSignOut()}
          disabled={busy || claiming.busy}
          data-testid="sign-out-without-key"
        >
          <Trans>Sign out without it</Trans>
        </Button>
        <Button
          onClick={() => void addThenSignOut()}
          disabled={busy || claiming.busy || claiming.captcha.state === 'unsupported'}
          aria-busy={claiming.busy}
          data-testid="claim-and-sign-out"
          autoFocus
        >
          <Trans>Add it to my account, then sign out</Trans>
        </Button>
      </DialogFooter>
    </>
  )
}
