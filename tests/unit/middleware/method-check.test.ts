import { afterAll, describe, expect, it } from 'vitest'
import { methodCheck } from '~/middleware/method-check'
import { provideEndpointMethods } from '~/server/http/endpoint-methods-lookup'
import { runPipeline } from '../../support/request-pipeline'

provideEndpointMethods((pathname) => (pathname === '/api/v1/product' ? ['GET'] : undefined))
afterAll(() => provideEndpointMethods(() => undefined))
const ok = () => new Response('handled')
const through = (method: string, path: string) =>
  runPipeline([methodCheck], new Request(`http://localhost:3000${path}`, { method }), ok)

describe('method check', () => {
  it('answers 405 with Allow for a method the endpoint has no handler for', async () => {
    const { response } = await through('DELETE', '/api/v1/product')
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
    expect(await (await through('GET', '/api/v1/product')).response.text()).toBe('handled')
  })

  it('answers a JSON 404 for an API path no endpoint serves, and lets pages and server functions through', async () => {
    const unknown = await through('GET', '/api/v1/nothing-here')
    expect(unknown.response.status).toBe(404)
    expect(await unknown.response.json()).toEqual({ detail: 'Unknown endpoint' })
    expect(await (await through('GET', '/pricing')).response.text()).toBe('handled')
    expect(await (await through('POST', '/_serverFn/abc')).response.text()).toBe('handled')
  })
})
