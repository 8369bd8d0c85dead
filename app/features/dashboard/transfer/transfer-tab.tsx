import { useQueryClient } from '@tanstack/react-query'
import type { TransferResult } from '~/contracts/billing'
import { useState } from 'react'
import { CardSkeleton, WithApiKey } from '../panels'
import { forgetKeyData } from '../queries'
import { setApiKey } from '~/lib/use-api-key'
import { TransferConfirm } from './transfer-confirm'
import { TransferForm, type Receiver } from './transfer-form'
import { TransferDone, type CompletedTransfer } from './transfer-done'

/** Choose the receiving key → confirm what happens (whole balance, sender revoked) with a captcha → result. */
export function TransferTab() {
  const queryClient = useQueryClient()
  const [receiver, setReceiver] = useState<Receiver>()
  const [done, setDone] = useState<CompletedTransfer>()

  // Shown outside WithApiKey: after the transfer the sending key is gone from the store.
  if (done) return <TransferDone done={done} onSwitch={() => setDone({ ...done, switched: true })} />

  const complete = (senderKey: string, result: TransferResult, receiverKey: string, switchToReceiver: boolean) => {
    // The sender is revoked now: leave its screens and forget it, so nothing asks the server about it again.
    setDone({ result, receiverKey, switched: switchToReceiver })
    setReceiver(undefined)
    setApiKey(switchToReceiver ? receiverKey : null)
    forgetKeyData(queryClient, senderKey)
  }

  return (
    <WithApiKey skeleton={<CardSkeleton className="h-72 w-full rounded-xl" />}>
      {(apiKey) =>
        receiver ? (
          <TransferConfirm
            apiKey={apiKey}
            receiver={receiver}
            onBack={() => setReceiver(undefined)}
            onDone={(result, switchToReceiver) => complete(apiKey, result, receiver.key, switchToReceiver)}
          />
        ) : (
          <TransferForm apiKey={apiKey} onReview={setReceiver} />
        )
      }
    </WithApiKey>
  )
}
