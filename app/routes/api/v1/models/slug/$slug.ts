import { createFileRoute } from '@tanstack/react-router'
import { findModel } from '~/server/domain/catalogue'
import { handle, jsonResponse, notFound } from '~/server/http/errors'

/** One model with its `num_replicas` (spec §7). */
export const Route = createFileRoute('/api/v1/models/slug/$slug')({
  server: {
    handlers: {
      GET: handle(async ({ params }: { params: { slug: string } }) => {
        const model = await findModel(params.slug)
        if (!model) throw notFound('Model not found')
        return jsonResponse(model, { headers: { 'cache-control': 'public, max-age=60' } })
      }),
    },
  },
})
