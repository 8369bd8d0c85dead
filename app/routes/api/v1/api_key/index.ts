import { createFileRoute } from '@tanstack/react-router'
import { revokeKey } from '~/server/domain/keys'
import { clientAddress } from '~/server/http/client-address'
import { handle, jsonResponse } from '~/server/http/errors'
import { parseForm } from '~/server/http/input'
import { keyHolder } from '~/server/http/key-holder'
import { captchaForm } from '~/server/http/schemas'
import { requireCaptcha } from '~/server/providers/captcha'

/** Revokes the bearer key (captcha required). Its balance stays in the ledger but can no longer be spent. */
export const Route = createFileRoute('/api/v1/api_key/')({
  server: {
    handlers: {
      DELETE: handle(async ({ request }: { request: Request }) => {
        const { db, key } = await keyHolder(request)
        const { captcha } = await parseForm(request, captchaForm)
        await requireCaptcha(captcha, clientAddress(request))
        await revokeKey(db, key.id)
        return jsonResponse({ detail: 'API key revoked' })
      }),
    },
  },
})
