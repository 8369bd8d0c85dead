import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { LogOutIcon } from 'lucide-react'
import { ConfirmDialog, ConfirmPanel } from '~/components/confirm-dialog'
import { Button } from '~/components/ui/button'
import { setApiKey } from '~/lib/use-api-key'
import { notify } from '../notify'
import { forgetKeyData } from '../queries'

/** Spec §4 logout: confirm, clear the stored key, show a success notice. The key itself keeps working. */
export function ForgetKeyDialog({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()

  const forget = (close: () => void) => {
    setApiKey(null)
    forgetKeyData(queryClient, apiKey)
    close()
    notify.success(t`Logged out: the key was removed from this browser`)
  }

  return (
    <ConfirmDialog
      trigger={
        <Button variant="outline" data-testid="forget-key">
          <LogOutIcon aria-hidden="true" />
          <Trans>Log out</Trans>
        </Button>
      }
    >
      <ConfirmPanel
        title={<Trans>Log out of the dashboard?</Trans>}
        description={
          <Trans>
            This browser forgets the key. The key keeps working and keeps its balance, so copy it first if you have not
            saved it.
          </Trans>
        }
        confirmLabel={<Trans>Log out</Trans>}
        onConfirm={forget}
        confirmTestId="confirm-forget-key"
        autoFocus
      />
    </ConfirmDialog>
  )
}
