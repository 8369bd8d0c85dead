import { describe, expect, it } from 'vitest'
import { compression } from '~/middleware/compression'
import { runPipeline } from '../../support/request-pipeline'

const page = 'x'.repeat(5000)

describe('compression', () => {
  it('gzips a large answer for a client that accepts gzip, and only then', async () => {
    const answer = () => new Response(page, { headers: { 'content-type': 'text/html', 'content-length': '5000' } })
    const gzip = new Request('http://localhost:3000/', { headers: { 'accept-encoding': 'gzip, br' } })
    const { response } = await runPipeline([compression], gzip, answer)
    expect(response.headers.get('content-encoding')).toBe('gzip')
    const body = await new Response(response.body!.pipeThrough(new DecompressionStream('gzip'))).text()
    expect(body).toBe(page)
    const plain = await runPipeline([compression], new Request('http://localhost:3000/'), answer)
    expect(plain.response.headers.get('content-encoding')).toBeNull()
  })
})
