import { createServerFn } from '@tanstack/react-start'
import * as v from 'valibot'
import { getDocPage } from '#content/docs'
import { serverEnv } from '~/server/env'
import { validatorOf } from '~/server/http/input'
import { renderDoc } from './render-doc.server'

/** One documentation page, rendered on the server: pages receive their own body, never every page in a bundle. */
export const fetchDocPage = createServerFn({ method: 'GET' })
  // Any string: a slug no page has is a page not found (the route sends it to the index), not a failure.
  .validator(validatorOf(v.object({ slug: v.string() })))
  .handler(async ({ data }) => {
    const page = getDocPage(data.slug)
    if (!page) return null
    const env = serverEnv()
    return renderDoc(page.body, { api: env.PUBLIC_API_BASE_URL, site: env.PUBLIC_BASE_URL })
  })
