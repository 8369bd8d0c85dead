import { Trans, useLingui } from '@lingui/react/macro'
import { Button } from '~/components/ui/button'
import { ConfirmDialog, ConfirmPanel } from '~/components/confirm-dialog'
import type { Organisation } from '~/contracts/organisations'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { notify } from '../notify'
import { orgKeys } from './queries'
import { useAction } from './use-action'

/** Any member may leave an organisation (the server keeps its last owner); asked first, since only an invitation brings them back. */
export function LeaveOrganisation({
  organisation,
  uid,
  onLeft,
}: {
  organisation: Organisation
  uid: string
  onLeft: () => void
}) {
  const { t } = useLingui()
  const { busy, error, run } = useAction(orgKeys.list)
  const name = organisation.name
  return (
    <div className="flex flex-col gap-2 border-t pt-4">
      <ConfirmDialog
        fresh
        trigger={
          <Button variant="outline" className="w-fit" data-testid="leave-organisation">
            <Trans>Leave {name}</Trans>
          </Button>
        }
      >
        <ConfirmPanel
          title={<Trans>Leave {name}?</Trans>}
          description={
            <Trans>You will no longer see its keys, usage or billing. Only a new invitation brings you back.</Trans>
          }
          confirmLabel={<Trans>Leave</Trans>}
          destructive
          busy={busy}
          onConfirm={(close) =>
            void run(() => organisationsApi.removeMember(organisation.id, uid)).then((done) => {
              close()
              if (!done) return
              notify.success(t`You left ${name}.`)
              onLeft()
            })
          }
        />
      </ConfirmDialog>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  )
}
