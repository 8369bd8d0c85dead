import { describe, expect, it } from 'vitest'
import { requestScope } from '~/middleware/request-scope'
import { currentRequest } from '~/server/request-context'
import { runPipeline } from '../../support/request-pipeline'

describe('request scope', () => {
  it('gives every later call the request id the proxy sent, and the pages the public URLs', async () => {
    let seen: ReturnType<typeof currentRequest>
    const request = new Request('http://localhost:3000/pricing', { headers: { 'x-request-id': 'proxy-7' } })
    const { context } = await runPipeline([requestScope], request, () => {
      seen = currentRequest()
      return new Response('ok')
    })
    expect(seen).toMatchObject({ requestId: 'proxy-7', method: 'GET', path: '/pricing' })
    expect(context).toMatchObject({ baseUrl: seen!.env.PUBLIC_BASE_URL, apiBaseUrl: seen!.env.PUBLIC_API_BASE_URL })
  })
})
