import { describe, expect, it } from 'vitest'
import { nodeRouting } from '~/middleware/node-routing'
import { runPipeline } from '../../support/request-pipeline'

describe('node routing', () => {
  it('hands nothing elsewhere in the Node build: the request reaches its handler', async () => {
    const request = new Request('http://localhost:3000/r/https://example.com')
    expect(await (await runPipeline([nodeRouting], request, () => new Response('here'))).response.text()).toBe('here')
  })
})
