import { createFileRoute } from '@tanstack/react-router'
import { keyInfo } from '~/server/domain/keys'
import { handle, jsonResponse } from '~/server/http/errors'
import { parseQuery } from '~/server/http/input'
import { keyHolder } from '~/server/http/key-holder'
import { feUserQuery } from '~/server/http/schemas'

/** Spec §3 key info for the key in the `api_key` query (or the bearer key). */
export const Route = createFileRoute('/api/v1/api_key/fe_user')({
  server: {
    handlers: {
      GET: handle(async ({ request }: { request: Request }) => {
        const { api_key } = parseQuery(request, feUserQuery)
        const { key } = await keyHolder(request, api_key)
        return jsonResponse(keyInfo(key))
      }),
    },
  },
})
