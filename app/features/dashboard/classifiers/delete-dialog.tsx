import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Trash2Icon } from 'lucide-react'
import { ConfirmDialog, ConfirmPanel } from '~/components/confirm-dialog'
import { Button } from '~/components/ui/button'
import { notify } from '../notify'
import { deleteClassifierMutation } from './queries'

export function DeleteClassifierDialog({ apiKey, id }: { apiKey: string; id: string }) {
  return (
    <ConfirmDialog
      trigger={
        <Button size="sm" variant="ghost" data-testid="delete-classifier">
          <Trash2Icon aria-hidden="true" />
          <Trans>Delete</Trans>
        </Button>
      }
    >
      <DeletePanel apiKey={apiKey} id={id} />
    </ConfirmDialog>
  )
}

function DeletePanel({ apiKey, id }: { apiKey: string; id: string }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const remove = useMutation(deleteClassifierMutation(queryClient))
  const confirm = (close: () => void) =>
    remove.mutate(
      { apiKey, id },
      {
        onSuccess: () => {
          close()
          notify.success(t`The classifier was deleted.`)
        },
      },
    )
  return (
    <ConfirmPanel
      title={<Trans>Delete this classifier?</Trans>}
      description={
        <Trans>
          Requests naming it, from this key or any other, will be refused from now on. Its training cannot be recovered.
        </Trans>
      }
      cancelLabel={<Trans>Keep it</Trans>}
      confirmLabel={<Trans>Delete classifier</Trans>}
      onConfirm={confirm}
      destructive
      busy={remove.isPending}
      confirmTestId="confirm-delete"
    />
  )
}
