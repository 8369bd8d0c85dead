import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { PencilIcon } from 'lucide-react'
import { useState } from 'react'
import { RenameForm } from '~/components/form/rename-form'
import { Button } from '~/components/ui/button'
import { accountApi } from '~/lib/auth/account-api'
import { useAuth } from '~/lib/auth/auth-context'
import { accountKeys, accountKeysQuery } from '../account/queries'
import { keyInfoQuery, toastError } from '../queries'
import { keyNames } from '../browser-names'

/**
 * The name of the key in use: the account's name for an account key, else the one this browser keeps for it
 * (a trial key's), renamed in place.
 */
export function KeyName({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const { status } = useAuth()
  const queryClient = useQueryClient()
  const info = useQuery(keyInfoQuery(apiKey))
  const account = useQuery(accountKeysQuery(status === 'signed-in'))
  const browserNames = keyNames.use()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState('')
  const [busy, setBusy] = useState(false)
  const keyId = info.data?.key_id
  if (!keyId) return null
  const accountKey = account.data?.keys.find((key) => key.key_id === keyId)
  const name = accountKey ? accountKey.name : browserNames[keyId]

  const save = async () => {
    setBusy(true)
    try {
      if (accountKey) {
        await accountApi.renameKey(keyId, draft.trim())
        await queryClient.invalidateQueries({ queryKey: accountKeys.keys })
      } else keyNames.set(keyId, draft)
      setEditing(false)
    } catch (error) {
      toastError(error)
    } finally {
      setBusy(false)
    }
  }

  if (editing)
    return (
      <RenameForm
        label={t`Name of the key`}
        value={draft}
        onChange={setDraft}
        onSave={() => void save()}
        onCancel={() => setEditing(false)}
        busy={busy}
        placeholder={t`Name, e.g. laptop or CI`}
        testId="key-name-form"
      />
    )
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="min-w-0 font-medium break-words" data-testid="key-name">
        {name ?? <span className="text-muted-foreground">{t`Unnamed key`}</span>}
      </span>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => {
          setDraft(name ?? '')
          setEditing(true)
        }}
        data-testid="rename-key"
      >
        <PencilIcon aria-hidden="true" />
        {name ? <Trans>Rename</Trans> : <Trans>Name this key</Trans>}
      </Button>
      {!accountKey && (
        <span className="text-xs text-muted-foreground">
          <Trans>kept in this browser</Trans>
        </span>
      )}
    </div>
  )
}
