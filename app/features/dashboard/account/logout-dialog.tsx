import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { LogOutIcon } from 'lucide-react'
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
import { useAuth } from '~/features/auth/auth-context'
import { notify } from '../notify'
import { setApiKey } from '~/lib/use-api-key'

/** Spec §4 logout for a signed-in user: confirm, then clear the user, sign out and show a success notice. */
export function LogoutDialog() {
  const { t } = useLingui()
  const { signOut } = useAuth()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const [busy, setBusy] = useState(false)

  const logOut = async () => {
    setBusy(true)
    // The user's key and everything read with it leave this browser; the account keeps them.
    setApiKey(null)
    await signOut()
    queryClient.removeQueries({ queryKey: ['dashboard'] })
    queryClient.removeQueries({ queryKey: ['account'] })
    setBusy(false)
    setOpen(false)
    notify.success(t`Signed out. Your keys stay in your account.`)
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" data-testid="sign-out">
          <LogOutIcon aria-hidden="true" />
          <Trans>Sign out</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`}>
        <DialogHeader>
          <DialogTitle>
            <Trans>Sign out of the dashboard?</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>This browser forgets your key and your account. Sign in again to use them here.</Trans>
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">
              <Trans>Cancel</Trans>
            </Button>
          </DialogClose>
          <Button onClick={() => void logOut()} disabled={busy} data-testid="confirm-sign-out" autoFocus>
            <Trans>Sign out</Trans>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
