import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { useQueryClient } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Input } from '~/components/ui/input'
import { dashboardKeys, keyInfoOf } from '../queries'
import { notify } from '~/features/dashboard/notify'
import { HydratedForm } from '~/components/form/hydrated-form'

/** Adopts a key the visitor already has, after checking with the server that it works. */
export function PasteKeyForm({ hasKey, onKey }: { hasKey: boolean; onKey: (apiKey: string) => void }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const inputId = useId()
  const [value, setValue] = useState('')
  const [error, setError] = useState<string>()
  const [checking, setChecking] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const candidate = value.trim()
    if (!candidate) return setError(t`Paste a key first.`)
    setChecking(true)
    setError(undefined)
    try {
      const info = await keyInfoOf(candidate)
      queryClient.setQueryData(dashboardKeys.keyInfo(candidate), info)
      onKey(candidate)
      setValue('')
      notify.success(t`Key added. The dashboard now shows this key.`)
    } catch (failure) {
      setError(t`This key does not work (${failure instanceof Error ? failure.message : String(failure)}).`)
    } finally {
      setChecking(false)
    }
  }

  return (
    <Card aria-labelledby={`${inputId}-title`}>
      <CardHeader>
        <CardTitle id={`${inputId}-title`}>
          {hasKey ? <Trans>Switch to another key</Trans> : <Trans>Use a key you already have</Trans>}
        </CardTitle>
        <CardDescription>
          <Trans>The key is checked with the server and then kept in this browser only.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <HydratedForm onSubmit={submit} className="flex flex-col gap-2" noValidate>
          <FormField id={inputId} label={<Trans>API key</Trans>} error={error}>
            {(field) => (
              <div className="flex flex-col gap-2 sm:flex-row">
                <Input
                  {...field}
                  data-testid="paste-key-input"
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  value={value}
                  onChange={(event) => setValue(event.target.value)}
                  className="font-mono"
                />
                <Button type="submit" variant="secondary" disabled={checking} data-testid="paste-key-submit">
                  {checking ? <Trans>Checking…</Trans> : <Trans>Use this key</Trans>}
                </Button>
              </div>
            )}
          </FormField>
        </HydratedForm>
      </CardContent>
    </Card>
  )
}
