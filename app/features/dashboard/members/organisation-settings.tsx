import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { ConfirmDialog, ConfirmPanel } from '~/components/confirm-dialog'
import { RenameForm } from '~/components/form/rename-form'
import { Button } from '~/components/ui/button'
import type { Organisation } from '~/contracts/organisations'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { notify } from '../notify'
import { orgKeys } from './queries'
import { may } from './role-rights'
import { useAction } from './use-action'

/** Renaming (owners and admins) and deleting (owners) an organisation made by hand; nothing for other roles. */
export function OrganisationSettings({
  organisation,
  onDeleted,
}: {
  organisation: Organisation
  onDeleted: () => void
}) {
  const { t } = useLingui()
  const [renaming, setRenaming] = useState(false)
  const [name, setName] = useState(organisation.name)
  const { busy, error, run } = useAction(orgKeys.list)
  const mayRename = may(organisation.role, 'renameOrganisation')
  const mayDelete = may(organisation.role, 'deleteOrganisation')
  if (!mayRename && !mayDelete) return null
  const current = organisation.name
  const rename = () =>
    void run(() => organisationsApi.rename(organisation.id, name.trim())).then((done) => done && setRenaming(false))
  const remove = (close: () => void) =>
    void run(() => organisationsApi.remove(organisation.id)).then((done) => {
      close()
      if (!done) return
      notify.success(t`${current} deleted.`)
      onDeleted()
    })
  return (
    <div className="flex flex-col gap-2" data-testid="organisation-settings">
      {renaming ? (
        <RenameForm
          label={t`Name of the organisation`}
          value={name}
          onChange={setName}
          busy={busy}
          onSave={rename}
          onCancel={() => setRenaming(false)}
        />
      ) : (
        <div className="flex flex-wrap gap-2">
          {mayRename && (
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                setName(current)
                setRenaming(true)
              }}
              data-testid="rename-organisation"
            >
              <Trans>Rename organisation</Trans>
            </Button>
          )}
          {mayDelete && (
            <ConfirmDialog
              fresh
              trigger={
                <Button variant="outline" size="sm" data-testid="delete-organisation">
                  <Trans>Delete organisation</Trans>
                </Button>
              }
            >
              <ConfirmPanel
                title={<Trans>Delete {current}?</Trans>}
                description={
                  <Trans>
                    Its keys are revoked and its members lose access; its history stays. This cannot be undone.
                  </Trans>
                }
                confirmLabel={<Trans>Delete</Trans>}
                destructive
                busy={busy}
                onConfirm={remove}
              />
            </ConfirmDialog>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  )
}
