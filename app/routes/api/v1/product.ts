import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { packAnswer } from '~/contracts/catalogue'
import { packs } from '~/server/api/catalogue'
import { endpoint } from '~/server/http/endpoint'

/** Spec §3 packs: the free pack first, then those with an allowed price id. */
export const Route = createFileRoute('/api/v1/product')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'Token packs: the free pack, then the packs on sale',
          auth: 'none',
          answer: v.array(packAnswer),
          errors: [],
          cache: 'public, max-age=300',
        },
        () => packs(),
      ),
    },
  },
})
