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
import { forgetKeyData } from '../queries'
import { setApiKey } from '~/lib/use-api-key'
import { notify } from '~/features/dashboard/notify'

/** Spec §4 logout: confirm, clear the stored key, show a success notice. The key itself keeps working. */
export function ForgetKeyDialog({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)

  const forget = () => {
    setApiKey(null)
    forgetKeyData(queryClient, apiKey)
    setOpen(false)
    notify.success(t`Logged out: the key was removed from this browser`)
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" data-testid="forget-key">
          <LogOutIcon aria-hidden="true" />
          <Trans>Log out</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`}>
        <DialogHeader>
          <DialogTitle>
            <Trans>Log out of the dashboard?</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>
              This browser forgets the key. The key keeps working and keeps its balance, so copy it first if you have
              not saved it.
            </Trans>
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">
              <Trans>Cancel</Trans>
            </Button>
          </DialogClose>
          <Button onClick={forget} data-testid="confirm-forget-key" autoFocus>
            <Trans>Log out</Trans>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
