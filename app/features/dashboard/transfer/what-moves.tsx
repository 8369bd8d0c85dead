import { Trans } from '@lingui/react/macro'
import { ArrowRightIcon, LockIcon } from 'lucide-react'
import type { KeyInfo } from '~/contracts/keys'

/**
 * The transfer rule (README "Transfers"), told before the sender is revoked: what follows the tokens to the
 * receiver and what stays behind with the revoked key.
 */
export function WhatMoves({ sender, receiver }: { sender: KeyInfo; receiver: KeyInfo }) {
  const premium = sender.metadata.speed_level > 1 && receiver.metadata.speed_level <= 1
  const paid = !!sender.email && !receiver.email
  return (
    <div className="grid gap-4 text-sm sm:grid-cols-2" data-testid="transfer-what-moves">
      <section aria-labelledby="moves-title" className="flex flex-col gap-1.5 rounded-md border p-3">
        <h3 id="moves-title" className="flex items-center gap-1.5 font-medium">
          <ArrowRightIcon aria-hidden="true" className="size-4 shrink-0" />
          <Trans>Moves to the receiving key</Trans>
        </h3>
        <ul className="flex list-disc flex-col gap-1 pl-5" data-testid="transfer-moves">
          <li>
            <Trans>Every token, and anything the sending key still owes from a refund</Trans>
          </li>
          {premium ? (
            <li>
              <Trans>Premium status and its higher rate limits: status follows bought tokens</Trans>
            </li>
          ) : (
            paid && (
              <li>
                <Trans>Paid status and its rate limits: status follows bought tokens</Trans>
              </li>
            )
          )}
          <li>
            <Trans>Purchase history and receipts; refunds are taken from whichever key holds the tokens</Trans>
          </li>
          <li>
            <Trans>Trained classifiers, with the same ids</Trans>
          </li>
          <li>
            <Trans>Bulk embedding jobs and their results; a job running now stops and can be retried there</Trans>
          </li>
          <li>
            <Trans>Balance alerts, unless the receiving key has alerts of its own</Trans>
          </li>
        </ul>
      </section>
      <section aria-labelledby="stays-title" className="flex flex-col gap-1.5 rounded-md border p-3">
        <h3 id="stays-title" className="flex items-center gap-1.5 font-medium">
          <LockIcon aria-hidden="true" className="size-4 shrink-0" />
          <Trans>Stays with the revoked key</Trans>
        </h3>
        <ul className="flex list-disc flex-col gap-1 pl-5" data-testid="transfer-stays">
          <li>
            {sender.metadata.auto_recharge ? (
              <Trans>
                Auto-recharge and its saved card: it ends with this key, and the receiving key keeps its own setting
                (off until its holder turns it on), since it charges a card
              </Trans>
            ) : (
              <Trans>
                Any saved card: the receiving key keeps its own auto-recharge setting (off until its holder turns it
                on), since it charges a card
              </Trans>
            )}
          </li>
          <li>
            <Trans>Its own list of transactions; the receiving key shows one transfer in</Trans>
          </li>
        </ul>
      </section>
    </div>
  )
}
