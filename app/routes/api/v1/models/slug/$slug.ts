import { createFileRoute } from '@tanstack/react-router'
import { findModel } from '~/server/domain/catalogue'
import { ModelNotFound } from '~/server/domain/refusals'
import { handle, jsonResponse } from '~/server/http/errors'

/** One model with its `num_replicas` (spec §7). */
export const Route = createFileRoute('/api/v1/models/slug/$slug')({
  server: {
    handlers: {
      GET: handle(async ({ params }: { params: { slug: string } }) => {
        const model = await findModel(params.slug)
        if (!model) throw new ModelNotFound()
        return jsonResponse(model, { headers: { 'cache-control': 'public, max-age=60' } })
      }),
    },
  },
})
