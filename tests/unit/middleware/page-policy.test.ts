import { describe, expect, it } from 'vitest'
import { pagePolicy } from '~/middleware/page-policy'
import { runPipeline } from '../../support/request-pipeline'

describe('page policy', () => {
  it('renders a page with a fresh nonce and sends the policy that allows it, a new one each time', async () => {
    const render = () => runPipeline([pagePolicy], new Request('http://localhost:3000/'), () => new Response('<p>'))
    const [first, second] = [await render(), await render()]
    expect(first.context.nonce).toEqual(expect.any(String))
    expect(first.context.nonce).not.toBe(second.context.nonce)
    expect(first.response.headers.get('content-security-policy')).toContain(`'nonce-${first.context.nonce}'`)
  })

  it('leaves API answers alone', async () => {
    const { response, context } = await runPipeline([pagePolicy], new Request('http://localhost:3000/v1/rerank'), () =>
      Response.json({}),
    )
    expect(context.nonce).toBeUndefined()
    expect(response.headers.get('content-security-policy')).toBeNull()
  })
})
