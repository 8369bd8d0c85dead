import { describe, expect, it } from 'vitest'
import { bodyLimit } from '~/middleware/body-limit'
import { runPipeline } from '../../support/request-pipeline'

describe('body limit', () => {
  it('refuses a body over the limit with 413 before the handler runs, and passes one under it whole', async () => {
    let handled = ''
    const handler = async () => new Response((handled = 'yes'))
    const big = new Request('http://localhost:3000/api/v1/api_key/trial', {
      method: 'POST',
      body: 'x'.repeat(5_000_000),
    })
    const refused = await runPipeline([bodyLimit], big, handler)
    expect(refused.response.status).toBe(413)
    expect(refused.response.headers.get('connection')).toBe('close')
    expect(handled).toBe('')
    const small = new Request('http://localhost:3000/api/v1/api_key/trial', { method: 'POST', body: '{}' })
    let body = ''
    await runPipeline([bodyLimit], small, async () => new Response((body = await small.text())))
    expect(body).toBe('{}')
  })
})
