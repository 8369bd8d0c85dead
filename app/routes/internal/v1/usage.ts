import { createFileRoute } from '@tanstack/react-router'
import { getDb } from '~/server/db/client'
import { findKey } from '~/server/domain/keys'
import { consume } from '~/server/domain/metering'
import { requireServiceToken } from '~/server/http/auth'
import { UnknownKey } from '~/server/domain/refusals'
import { handle, jsonResponse } from '~/server/http/errors'
import { parseJson } from '~/server/http/input'
import { usageBody } from '~/server/http/schemas'
import { kickOutbox } from '~/server/providers/email'

/** Metering: a search service charges a key for one usage event, once however often it is sent. 402 when short. */
export const Route = createFileRoute('/internal/v1/usage')({
  server: {
    handlers: {
      POST: handle(async ({ request }: { request: Request }) => {
        requireServiceToken(request)
        const body = await parseJson(request, usageBody)
        const db = await getDb()
        let keyId = body.key_id
        if (body.api_key !== undefined) {
          const key = await findKey(db, body.api_key)
          if (!key) throw new UnknownKey()
          keyId = key.id
        }
        const result = await consume(db, { keyId: keyId!, tokens: body.tokens, usageEventId: body.usage_event_id, product: body.product, model: body.model })
        if (result.alerts > 0) kickOutbox()
        return jsonResponse({ usage_event_id: body.usage_event_id, key_id: keyId, tokens: body.tokens, balance: result.balance, duplicate: result.duplicate })
      }),
    },
  },
})
