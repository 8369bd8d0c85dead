import { createFileRoute } from '@tanstack/react-router'
import { serverEnv } from '~/server/env'

export const Route = createFileRoute('/robots.txt')({
  server: {
    handlers: {
      GET: () => {
        const base = serverEnv().PUBLIC_BASE_URL
        const body = [
          'User-agent: *',
          'Allow: /',
          'Disallow: /api/',
          'Disallow: /api-dashboard',
          'Disallow: /*/api-dashboard',
          `Sitemap: ${new URL('/sitemap.xml', base)}`,
          '',
        ].join('\n')
        return new Response(body, {
          headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' },
        })
      },
    },
  },
})
