import { createFileRoute } from '@tanstack/react-router'
import { offeredPacks } from '~/server/domain/packs'
import { handle, jsonResponse } from '~/server/http/errors'

/** Spec §3 packs: the free pack first, then those with an allowed price id. */
export const Route = createFileRoute('/api/v1/product')({
  server: { handlers: { GET: handle(() => jsonResponse(offeredPacks(), { headers: { 'cache-control': 'public, max-age=300' } })) } },
})
