import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { ConfirmDialog, ConfirmPanel } from '~/components/confirm-dialog'
import { Badge } from '~/components/ui/badge'
import { RenameForm } from '~/components/form/rename-form'
import { Button } from '~/components/ui/button'
import type { AccountKey } from '~/contracts/account'
import { accountApi } from '~/lib/auth/account-api'
import { useFormat } from '~/lib/format'
import { notify } from '../notify'
import { forgetKeyData, toastError } from '../queries'
import { setApiKey } from '~/lib/use-api-key'
import { KeyControlsSection } from './key-controls-form'
import { SpendLimitsSection } from './spend-limits-section'
import { accountKeys } from './queries'

/** One key of the account: its name, balance, and what its owner can do with it from this device. */
export function AccountKeyRow({
  accountKey,
  inUse,
  current,
}: {
  accountKey: AccountKey
  inUse: boolean
  current: string | null
}) {
  const { t } = useLingui()
  const format = useFormat()
  const queryClient = useQueryClient()
  const [renaming, setRenaming] = useState(false)
  const [name, setName] = useState(accountKey.name ?? '')
  const [busy, setBusy] = useState(false)
  const label = accountKey.name ?? t`Unnamed key`

  const act = async (action: () => Promise<void>) => {
    setBusy(true)
    try {
      await action()
      await queryClient.invalidateQueries({ queryKey: accountKeys.keys })
    } catch (error) {
      toastError(error)
    } finally {
      setBusy(false)
    }
  }
  const use = () =>
    act(async () => {
      const { api_key } = await accountApi.revealKey(accountKey.key_id)
      if (current && current !== api_key) forgetKeyData(queryClient, current)
      setApiKey(api_key)
      notify.success(t`This browser now uses ${label}.`)
    })
  const rename = () =>
    void act(async () => {
      await accountApi.renameKey(accountKey.key_id, name.trim())
      setRenaming(false)
    })
  const [controlsOpen, setControlsOpen] = useState(false)
  const revoke = (close: () => void) =>
    void act(async () => {
      await accountApi.revokeKey(accountKey.key_id)
      if (inUse && current) {
        forgetKeyData(queryClient, current)
        setApiKey(null)
      }
      close()
      notify.success(t`${label} was revoked.`)
    })

  return (
    <li className="flex flex-col gap-2 border-b py-3 last:border-b-0" data-testid="account-key">
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 font-medium break-words" data-testid="account-key-name">
          {label}
        </span>
        <code className="font-mono text-xs text-muted-foreground">{accountKey.key_display}</code>
        {inUse && <Badge>{t`In use here`}</Badge>}
        {accountKey.revoked && <Badge variant="outline">{t`Revoked`}</Badge>}
      </div>
      <p className="text-sm text-muted-foreground tabular-nums">
        <Trans>{format.tokens(accountKey.balance)} tokens</Trans>
      </p>
      {renaming ? (
        <RenameForm
          label={t`Name of the key`}
          value={name}
          onChange={setName}
          onSave={rename}
          onCancel={() => setRenaming(false)}
          busy={busy}
        />
      ) : (
        !accountKey.revoked && (
          <div className="flex flex-wrap gap-2">
            {!inUse && accountKey.can_reveal && (
              <Button size="sm" onClick={() => void use()} disabled={busy} data-testid="use-account-key">
                <Trans>Use in this browser</Trans>
              </Button>
            )}
            <Button size="sm" variant="outline" onClick={() => setRenaming(true)} disabled={busy}>
              <Trans>Rename</Trans>
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => setControlsOpen((open) => !open)}
              aria-expanded={controlsOpen}
              data-testid="open-key-controls"
            >
              <Trans>Controls</Trans>
            </Button>
            <ConfirmDialog
              trigger={
                <Button size="sm" variant="outline" disabled={busy}>
                  <Trans>Revoke</Trans>
                </Button>
              }
            >
              <ConfirmPanel
                title={<Trans>Revoke this API key?</Trans>}
                description={
                  <Trans>
                    Revoke {label}? It stops working everywhere at once, and its balance can no longer be spent.
                  </Trans>
                }
                confirmLabel={<Trans>Revoke for good</Trans>}
                onConfirm={revoke}
                destructive
                busy={busy}
                confirmTestId="confirm-revoke-account-key"
              />
            </ConfirmDialog>
          </div>
        )
      )}
      {controlsOpen && !accountKey.revoked && (
        <>
          <KeyControlsSection keyId={accountKey.key_id} label={label} />
          <SpendLimitsSection keyId={accountKey.key_id} />
        </>
      )}
    </li>
  )
}
