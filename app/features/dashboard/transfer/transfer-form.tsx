import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { useQuery } from '@tanstack/react-query'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Input } from '~/components/ui/input'
import type { KeyInfo } from '~/contracts/keys'
import { useFormat } from '~/lib/format'
import { keyInfoOf, keyInfoQuery } from '../queries'

export interface Receiver {
  key: string
  info: KeyInfo
}

export function TransferForm({ apiKey, onReview }: { apiKey: string; onReview: (receiver: Receiver) => void }) {
  const { t } = useLingui()
  const format = useFormat()
  const inputId = useId()
  const sender = useQuery(keyInfoQuery(apiKey))
  const [value, setValue] = useState('')
  const [error, setError] = useState<string>()
  const [checking, setChecking] = useState(false)

  const review = async (event: FormEvent) => {
    event.preventDefault()
    const key = value.trim()
    if (!key) return setError(t`Enter the key that should receive the balance.`)
    if (key === apiKey) return setError(t`That is the key you are sending from. Enter a different key.`)
    setChecking(true)
    setError(undefined)
    try {
      onReview({ key, info: await keyInfoOf(key) })
    } catch (failure) {
      setError(t`The receiving key does not work (${failure instanceof Error ? failure.message : String(failure)}).`)
    } finally {
      setChecking(false)
    }
  }

  const balance = sender.data?.wallet.total_balance
  return (
    <Card aria-labelledby="transfer-title">
      <CardHeader>
        <CardTitle id="transfer-title">
          <Trans>Move your balance to another key</Trans>
        </CardTitle>
        <CardDescription>
          {balance === undefined ? (
            <Trans>The whole balance of this key moves, and this key is revoked.</Trans>
          ) : (
            <Trans>
              This key has <span data-testid="transfer-balance">{format.tokens(balance)}</span> tokens. All of them
              move, and this key is revoked.
            </Trans>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form onSubmit={review} className="flex flex-col gap-2" noValidate>
          <FormField id={inputId} label={<Trans>Receiving API key</Trans>} error={error}>
            {(field) => (
              <Input
                {...field}
                data-testid="transfer-receiver"
                type="password"
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                value={value}
                onChange={(event) => setValue(event.target.value)}
              />
            )}
          </FormField>
          <Button
            type="submit"
            className="mt-2 w-fit"
            disabled={checking || balance === 0}
            data-testid="transfer-review"
          >
            {checking ? <Trans>Checking…</Trans> : <Trans>Review transfer</Trans>}
          </Button>
          {balance === 0 && (
            <p className="text-sm text-muted-foreground">
              <Trans>This key has no tokens to transfer.</Trans>
            </p>
          )}
        </form>
      </CardContent>
    </Card>
  )
}
