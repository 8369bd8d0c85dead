import { createFileRoute } from '@tanstack/react-router'
import { findKey } from '~/server/domain/keys'
import { transferBalance } from '~/server/domain/transfers'
import { clientAddress } from '~/server/http/client-address'
import { ReceiverNotFound } from '~/server/domain/refusals'
import { handle, jsonResponse } from '~/server/http/errors'
import { parseForm, parseQuery } from '~/server/http/input'
import { keyHolder } from '~/server/http/key-holder'
import { captchaForm, transferBalanceQuery } from '~/server/http/schemas'
import { requireCaptcha } from '~/server/providers/captcha'

/** Moves the bearer key's whole balance to `receiver_key` and revokes the bearer key, atomically. */
export const Route = createFileRoute('/api/v1/billing/transfer_balance')({
  server: {
    handlers: {
      POST: handle(async ({ request }: { request: Request }) => {
        const { db, key } = await keyHolder(request)
        const query = parseQuery(request, transferBalanceQuery)
        const { captcha } = await parseForm(request, captchaForm)
        await requireCaptcha(captcha, clientAddress(request))
        const receiver = await findKey(db, query.receiver_key)
        if (!receiver) throw new ReceiverNotFound()
        return jsonResponse(await transferBalance(db, key.id, receiver.id))
      }),
    },
  },
})
