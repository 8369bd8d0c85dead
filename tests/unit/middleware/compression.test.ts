import { brotliDecompressSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { compression } from '~/middleware/compression'
import { runPipeline } from '../../support/request-pipeline'

const page = 'x'.repeat(5000)

describe('compression', () => {
  it('compresses a large page with brotli for a client that accepts it, and only then', async () => {
    const answer = () => new Response(page, { headers: { 'content-type': 'text/html', 'content-length': '5000' } })
    const br = new Request('http://localhost:3000/', { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } })
    const { response } = await runPipeline([compression], br, answer)
    expect(response.headers.get('content-encoding')).toBe('br')
    expect(brotliDecompressSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(page)
    const gzip = new Request('http://localhost:3000/', { headers: { 'accept-encoding': 'gzip' } })
    expect((await runPipeline([compression], gzip, answer)).response.headers.get('content-encoding')).toBe('gzip')
  })

  it('gzips a large answer that is not a page (API JSON) even for a client that accepts brotli, and only then', async () => {
    const answer = () =>
      new Response(page, { headers: { 'content-type': 'application/json', 'content-length': '5000' } })
    const gzip = new Request('http://localhost:3000/', { headers: { 'accept-encoding': 'gzip, br' } })
    const { response } = await runPipeline([compression], gzip, answer)
    expect(response.headers.get('content-encoding')).toBe('gzip')
    const body = await new Response(response.body!.pipeThrough(new DecompressionStream('gzip'))).text()
    expect(body).toBe(page)
    const plain = await runPipeline([compression], new Request('http://localhost:3000/'), answer)
    expect(plain.response.headers.get('content-encoding')).toBeNull()
  })
})
