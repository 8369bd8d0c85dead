import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Trash2Icon } from 'lucide-react'
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
import { notify } from '../notify'
import { deleteClassifierMutation } from './queries'

export function DeleteClassifierDialog({ apiKey, id }: { apiKey: string; id: string }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const remove = useMutation(deleteClassifierMutation(queryClient))
  const confirm = () =>
    remove.mutate(
      { apiKey, id },
      {
        onSuccess: () => {
          setOpen(false)
          notify.success(t`The classifier was deleted.`)
        },
      },
    )
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost" data-testid="delete-classifier">
          <Trash2Icon aria-hidden="true" />
          <Trans>Delete</Trans>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`}>
        <DialogHeader>
          <DialogTitle>
            <Trans>Delete this classifier?</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>
              Requests naming it, from this key or any other, will be refused from now on. Its training cannot be
              recovered.
            </Trans>
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">
              <Trans>Keep it</Trans>
            </Button>
          </DialogClose>
          <Button variant="destructive" disabled={remove.isPending} onClick={confirm} data-testid="confirm-delete">
            <Trans>Delete classifier</Trans>
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
