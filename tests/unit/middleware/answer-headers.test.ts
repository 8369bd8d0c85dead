import { describe, expect, it } from 'vitest'
import { answerHeaders } from '~/middleware/answer-headers'
import { requestScope } from '~/middleware/request-scope'
import { API_CONTENT_SECURITY_POLICY } from '~/server/http/security'
import { runPipeline } from '../../support/request-pipeline'

const through = (path: string, answer: () => Response) =>
  runPipeline([requestScope, answerHeaders], new Request(`http://localhost:3000${path}`), answer)

describe('answer headers', () => {
  it('gives an API answer the policy that allows nothing, the security headers and the request id', async () => {
    const { response } = await through('/v1/embeddings', () => Response.json({}))
    expect(response.headers.get('content-security-policy')).toBe(API_CONTENT_SECURITY_POLICY)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('x-request-id')).toMatch(/^[\w-]{36}$/)
  })

  it("keeps a page's own policy, and an API answer cannot bring one", async () => {
    const page = await through('/pricing', () => new Response('', { headers: { 'content-security-policy': 'page' } }))
    expect(page.response.headers.get('content-security-policy')).toBe('page')
    const api = await through('/v1/embeddings', () => new Response('', { headers: { 'content-security-policy': 'x' } }))
    expect(api.response.headers.get('content-security-policy')).toBe(API_CONTENT_SECURITY_POLICY)
  })

  it('sets them on a copy of an answer whose headers are immutable (a redirect)', async () => {
    const { response } = await through('/old', () => Response.redirect('http://localhost:3000/new', 301))
    expect(response.status).toBe(301)
    expect(response.headers.get('location')).toBe('http://localhost:3000/new')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
  })
})
