import { Trans, useLingui } from '@lingui/react/macro'
import { dashboardChallenge } from '../key/key-service'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { TriangleAlertIcon } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '~/components/ui/card'
import type { TransferResult } from '~/contracts/billing'
import { CaptchaWidget } from '~/components/captcha-widget'
import { CaptchaError, useCaptcha } from '~/lib/captcha/use-captcha'
import { maskKey, useFormat } from '~/lib/format'
import { keyInfoQuery, transferMutation } from '../queries'
import type { Receiver } from './transfer-form'
import { WhatMoves } from './what-moves'
import { notify } from '~/features/dashboard/notify'

type Props = {
  apiKey: string
  receiver: Receiver
  onBack: () => void
  onDone: (result: TransferResult, switchToReceiver: boolean) => void
}

export function TransferConfirm({ apiKey, receiver, onBack, onDone }: Props) {
  const { t } = useLingui()
  const format = useFormat()
  const switchId = useId()
  const captcha = useCaptcha('transfer_balance', dashboardChallenge)
  const sender = useQuery(keyInfoQuery(apiKey))
  const queryClient = useQueryClient()
  const transfer = useMutation(transferMutation(queryClient))
  const [switchToReceiver, setSwitchToReceiver] = useState(true)

  const amount = format.tokens(sender.data?.wallet.total_balance ?? 0)
  const receiverAfter = format.tokens(receiver.info.wallet.total_balance + (sender.data?.wallet.total_balance ?? 0))
  const from = maskKey(apiKey)
  const to = maskKey(receiver.key)

  const submit = async () => {
    let payload: string
    try {
      payload = await captcha.ensure()
    } catch (error) {
      if (error instanceof CaptchaError) return
      throw error
    }
    try {
      const result = await transfer.mutateAsync({ apiKey, receiverKey: receiver.key, captcha: payload })
      const moved = format.tokens(result.amount)
      notify.success(t`Transferred ${moved} tokens. The sending key is revoked.`)
      onDone(result, switchToReceiver)
    } catch {
      captcha.reset()
    }
  }

  return (
    <Card aria-labelledby="confirm-transfer-title" data-testid="transfer-confirm">
      <CardHeader>
        <CardTitle id="confirm-transfer-title">
          <Trans>Confirm the transfer</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm">
          <li>
            <Trans>
              All <strong className="tabular-nums">{amount}</strong> tokens move from <code translate="no">{from}</code>{' '}
              to <code translate="no">{to}</code>.
            </Trans>
          </li>
          <li>
            <Trans>
              The receiving key will then have <strong className="tabular-nums">{receiverAfter}</strong> tokens.
            </Trans>
          </li>
          <li className="font-medium text-destructive">
            <TriangleAlertIcon aria-hidden="true" className="mr-1 inline size-4 align-text-bottom" />
            <Trans>
              The sending key <code translate="no">{from}</code> is revoked and stops working immediately, everywhere it
              is used. This cannot be undone.
            </Trans>
          </li>
        </ul>
        {sender.data && <WhatMoves sender={sender.data} receiver={receiver.info} />}
        <div className="flex items-center gap-2 text-sm">
          <input
            id={switchId}
            type="checkbox"
            className="size-4 accent-primary"
            checked={switchToReceiver}
            onChange={(event) => setSwitchToReceiver(event.target.checked)}
          />
          <label htmlFor={switchId}>
            <Trans>Afterwards, use the receiving key in this dashboard</Trans>
          </label>
        </div>
        <CaptchaWidget captcha={captcha} />
      </CardContent>
      <CardFooter>
        <Button variant="outline" onClick={onBack} disabled={transfer.isPending}>
          <Trans>Back</Trans>
        </Button>
        <Button
          variant="destructive"
          onClick={submit}
          disabled={transfer.isPending || captcha.state === 'loading' || !sender.data}
          data-testid="transfer-submit"
        >
          {transfer.isPending ? (
            <Trans>Transferring…</Trans>
          ) : (
            <Trans>Transfer {amount} tokens and revoke this key</Trans>
          )}
        </Button>
      </CardFooter>
    </Card>
  )
}
