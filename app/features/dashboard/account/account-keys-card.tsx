import { Trans, useLingui } from '@lingui/react/macro'
import { dashboardChallenge } from '../key/key-service'
import { FormField } from '~/components/form/form-field'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Input } from '~/components/ui/input'
import { Skeleton } from '~/components/ui/skeleton'
import { accountApi } from '~/lib/auth/account-api'
import { useAuth } from '~/lib/auth/auth-context'
import { CaptchaWidget } from '~/components/captcha-widget'
import { CaptchaError, useCaptcha } from '~/lib/captcha/use-captcha'
import { notify } from '../notify'
import { keyInfoQuery, toastError } from '../queries'
import { useDashboardKey } from '../dashboard-key'
import { AccountKeyRow } from './account-key-row'
import { NewKeyOnce } from './new-key-once'
import { useKeyHere } from './use-key-here'
import { accountKeys, accountKeysQuery } from './queries'

/** A signed-in user's keys, on every device: use one here, name, revoke, create (this browser's key is offered above the tabs). */
export function AccountKeysCard() {
  const { t } = useLingui()
  const { status } = useAuth()
  const { apiKey } = useDashboardKey()
  const keys = useQuery(accountKeysQuery(status === 'signed-in'))
  const current = useQuery(keyInfoQuery(apiKey))
  if (status !== 'signed-in') return null
  const currentId = current.data?.key_id
  const list = keys.data?.keys ?? []

  return (
    <Card aria-labelledby="account-keys-title" className="lg:col-span-2" data-testid="account-keys">
      <CardHeader>
        <CardTitle id="account-keys-title">
          <Trans>Your account's keys</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Every key here is yours on any device where you sign in.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {keys.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : list.length ? (
          <ul aria-label={t`Keys`}>
            {list.map((key) => (
              <AccountKeyRow key={key.key_id} accountKey={key} inUse={key.key_id === currentId} current={apiKey} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">
            <Trans>No keys in your account yet.</Trans>
          </p>
        )}
        <CreateKey />
      </CardContent>
    </Card>
  )
}

function CreateKey() {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const { apiKey } = useDashboardKey()
  const keyHere = useKeyHere()
  const captcha = useCaptcha('new_key', dashboardChallenge)
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)
  const [created, setCreated] = useState<{ apiKey: string; name: string | null }>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    try {
      const created = await accountApi.createKey(name.trim(), await captcha.ensure())
      await queryClient.invalidateQueries({ queryKey: accountKeys.keys })
      // Not put into use here: the dashboard keeps the key it shows until the user picks this one (below).
      setName('')
      setCreated({ apiKey: created.api_key, name: created.key.name })
      notify.success(t`Key created.`)
    } catch (error) {
      if (!(error instanceof CaptchaError)) toastError(error)
    } finally {
      captcha.reset()
      setBusy(false)
    }
  }
  if (created)
    return (
      <NewKeyOnce
        {...created}
        inUse={created.apiKey === apiKey}
        onUse={(label) => keyHere(created.apiKey, label)}
        onDone={() => setCreated(undefined)}
      />
    )
  return (
    <form onSubmit={submit} className="flex flex-col gap-3 border-t pt-4" data-testid="create-account-key">
      <FormField id="new-key-name" label={<Trans>New key</Trans>}>
        {(field) => (
          <Input
            {...field}
            placeholder={t`Name, e.g. laptop or CI`}
            value={name}
            maxLength={60}
            onChange={(e) => setName(e.target.value)}
            className="max-w-80"
          />
        )}
      </FormField>
      <CaptchaWidget captcha={captcha} />
      <Button type="submit" className="w-fit" disabled={busy || captcha.state === 'unsupported'} aria-busy={busy}>
        <Trans>Create key</Trans>
      </Button>
    </form>
  )
}
