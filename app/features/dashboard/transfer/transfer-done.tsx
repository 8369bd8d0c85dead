import { Trans } from '@lingui/react/macro'
import { CircleCheckIcon } from 'lucide-react'
import { LocalizedLink } from '~/components/site/localized-link'
import { Button, buttonVariants } from '~/components/ui/button'
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '~/components/ui/card'
import { maskKey, useFormat } from '~/lib/format'
import { setApiKey } from '~/lib/use-api-key'
import type { TransferResult } from '~/contracts/billing'

export interface CompletedTransfer {
  result: TransferResult
  receiverKey: string
  switched: boolean
}

export function TransferDone({ done, onSwitch }: { done: CompletedTransfer; onSwitch: () => void }) {
  const format = useFormat()
  const moved = format.tokens(done.result.amount)
  const receiverBalance = format.tokens(done.result.receiver_balance)
  const receiver = maskKey(done.receiverKey)
  return (
    <Card aria-labelledby="transfer-done-title" data-testid="transfer-result" role="status">
      <CardHeader>
        <CardTitle id="transfer-done-title" className="flex items-center gap-2">
          <CircleCheckIcon aria-hidden="true" className="size-5 text-success" />
          <Trans>Transfer complete</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2 text-sm">
        <p>
          <Trans>
            <strong className="tabular-nums">{moved}</strong> tokens moved to <code translate="no">{receiver}</code>,
            which now has{' '}
            <strong className="tabular-nums" data-testid="receiver-balance">
              {receiverBalance}
            </strong>{' '}
            tokens.
          </Trans>
        </p>
        <p>
          <Trans>The sending key is revoked and no longer works.</Trans>
        </p>
        <p>
          {done.switched ? (
            <Trans>This dashboard now uses the receiving key.</Trans>
          ) : (
            <Trans>This browser no longer holds a working key.</Trans>
          )}
        </p>
      </CardContent>
      <CardFooter>
        {done.switched ? (
          <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}" className={buttonVariants()}>
            <Trans>Go to the key</Trans>
          </LocalizedLink>
        ) : (
          <Button
            data-testid="use-receiver-key"
            onClick={() => {
              setApiKey(done.receiverKey)
              onSwitch()
            }}
          >
            <Trans>Use the receiving key here</Trans>
          </Button>
        )}
      </CardFooter>
    </Card>
  )
}
