import { request as httpRequest } from 'node:http'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { serveBuild, useServer } from './support/server'

const baseUrl = inject('baseUrl')

/** A raw request, so the Host header can be forged and the path sent exactly as written. */
function rawRequest(path: string, headers: Record<string, string>) {
  const { hostname, port } = new URL(baseUrl)
  return new Promise<{ status: number; location?: string }>((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, headers }, (res) => {
      res.resume()
      resolve({ status: res.statusCode!, location: res.headers.location })
    })
    req.on('error', reject)
    req.end()
  })
}

const linkHrefs = (html: string, rel: string) =>
  [...html.matchAll(/<link\b[^>]*>/g)]
    .map(([tag]) => tag)
    .filter((tag) => tag.includes(`rel="${rel}"`))
    .map((tag) => tag.match(/href="([^"]+)"/)![1]!)

describe('methods an endpoint does not have', () => {
  const cases = [
    ['DELETE', '/internal/v1/usage', 'POST, OPTIONS'],
    ['GET', '/internal/v1/usage', 'POST, OPTIONS'],
    ['POST', '/api/v1/product', 'GET, HEAD, OPTIONS'],
    ['PUT', '/healthz', 'GET, HEAD, OPTIONS'],
    ['PATCH', '/api/v1/api_key/fe_user', 'GET, HEAD, OPTIONS'],
    ['POST', '/api/v1/models/slug/reranker-v3', 'GET, HEAD, OPTIONS'],
    ['POST', '/sitemap.xml', 'GET, HEAD, OPTIONS'],
    ['DELETE', '/robots.txt', 'GET, HEAD, OPTIONS'],
  ] as const

  for (const [method, path, allow] of cases) {
    it(`${method} ${path} answers 405 {detail} with Allow: ${allow}`, async () => {
      const response = await fetch(baseUrl + path, { method })
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe(allow)
      expect(response.headers.get('content-type')).toContain('application/json')
      expect(await response.json()).toEqual({ detail: 'Method not allowed' })
    })
  }

  it('answers OPTIONS with the allowed methods, and the right method as before', async () => {
    const options = await fetch(`${baseUrl}/api/v1/product`, { method: 'OPTIONS' })
    expect(options.status).toBe(204)
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    const get = await fetch(`${baseUrl}/api/v1/product`)
    expect(get.status).toBe(200)
    expect(Array.isArray(await get.json())).toBe(true)
    expect((await fetch(`${baseUrl}/healthz`, { method: 'HEAD' })).status).toBe(200)
  })

  it('answers an API path no endpoint serves with a JSON 404, not a page', async () => {
    for (const path of ['/internal/v1/nothing', '/api/v1/nothing']) {
      const response = await fetch(baseUrl + path, { method: 'POST', redirect: 'manual' })
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ detail: 'Unknown endpoint' })
    }
  })
})

describe('redirects with a forged Host header', () => {
  const paths = [
    '//api/v1/product',
    '//evil.com/x',
    '/\\evil.com',
    '/models/no-such-model',
    '/?sui=1',
    '/api-dashboard/',
  ]
  for (const path of paths) {
    it(`${path} redirects to a path on this site`, async () => {
      const { status, location } = await rawRequest(path, { host: 'evil.example' })
      expect(status).toBeGreaterThanOrEqual(300)
      expect(status).toBeLessThan(400)
      expect(location).toMatch(/^\/(?![/\\])/)
      expect(location).not.toContain('evil.example')
    })
  }
})

describe('canonical and alternate links', () => {
  for (const path of ['/models', '/news', '/de/models', '/ru/news']) {
    it(`of ${path} name addresses served without a redirect, prerendered or live`, async () => {
      const html = await (await fetch(baseUrl + path)).text()
      const hrefs = [...linkHrefs(html, 'canonical'), ...linkHrefs(html, 'alternate')]
      expect(hrefs.length).toBeGreaterThan(2)
      expect(linkHrefs(html, 'canonical')[0]!.replace(/^https?:\/\/[^/]+/, '')).toBe(path)
      for (const href of hrefs) {
        const { pathname } = new URL(href)
        // A query string makes the server render live, where a trailing slash redirects.
        for (const query of ['', '?utm_source=test']) {
          const response = await fetch(baseUrl + pathname + query, { redirect: 'manual' })
          expect(response.status, `${pathname}${query}`).toBe(200)
        }
      }
    })
  }
})

describe('a server started on another port without PUBLIC_BASE_URL', () => {
  const server = useServer(() => serveBuild({ PUBLIC_BASE_URL: undefined, E2E_PUBLIC_BASE_URL: undefined }), {
    forceAfterMs: 10_000,
  })
  let origin: string
  beforeAll(() => {
    origin = `http://localhost:${new URL(server.baseUrl).port}`
  })

  it('links canonical, hreflang, sitemap and API reference to that port', async () => {
    const html = await (await fetch(`${server.baseUrl}/de/models`)).text()
    expect(linkHrefs(html, 'canonical')).toEqual([`${origin}/de/models`])
    expect(linkHrefs(html, 'alternate').every((href) => href.startsWith(`${origin}/`))).toBe(true)
    const sitemap = await (await fetch(`${server.baseUrl}/sitemap.xml`)).text()
    expect(sitemap).toContain(`<loc>${origin}/</loc>`)
    expect(sitemap).not.toContain('localhost:3000')
    const openapi = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as {
      servers: { url: string }[]
    }
    expect(openapi.servers[0]!.url.startsWith(origin)).toBe(true)
    const reference = await (await fetch(`${server.baseUrl}/api-reference`)).text()
    expect(reference).toContain(origin)
    expect(reference).not.toContain('localhost:3000')
  })
})
