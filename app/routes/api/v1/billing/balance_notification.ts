import { createFileRoute } from '@tanstack/react-router'
import { deleteBalanceNotification, getBalanceNotification, setBalanceNotification } from '~/server/domain/notifications'
import { InvalidInput, InvalidThresholds } from '~/server/domain/refusals'
import { handle, jsonResponse } from '~/server/http/errors'
import { parseJson } from '~/server/http/input'
import { keyHolder } from '~/server/http/key-holder'
import { balanceNotificationBody } from '~/server/http/schemas'

/** Balance alerts of the bearer key: up to 3 thresholds and one e-mail address. */
export const Route = createFileRoute('/api/v1/billing/balance_notification')({
  server: {
    handlers: {
      GET: handle(async ({ request }: { request: Request }) => {
        const { db, key } = await keyHolder(request)
        return jsonResponse(await getBalanceNotification(db, key.id))
      }),
      POST: handle(async ({ request }: { request: Request }) => {
        const { db, key } = await keyHolder(request)
        const body = await parseJson(request, balanceNotificationBody).catch((error) => {
          // Spec §5 fixes this one message for any problem with the thresholds list.
          const thresholdsWrong = error instanceof InvalidInput && error.issues.some((i) => i.loc[1] === 'thresholds')
          throw thresholdsWrong ? new InvalidThresholds() : error
        })
        return jsonResponse(await setBalanceNotification(db, key.id, body.thresholds, body.email))
      }),
      DELETE: handle(async ({ request }: { request: Request }) => {
        const { db, key } = await keyHolder(request)
        await deleteBalanceNotification(db, key.id)
        return jsonResponse(await getBalanceNotification(db, key.id))
      }),
    },
  },
})
