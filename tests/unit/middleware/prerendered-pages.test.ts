import { describe, expect, it } from 'vitest'
import { prerenderedPages } from '~/middleware/prerendered-pages'
import { runPipeline } from '../../support/request-pipeline'

describe('prerendered pages', () => {
  it('renders live when there is no build to serve from (tests, dev)', async () => {
    const { response } = await runPipeline(
      [prerenderedPages],
      new Request('http://localhost:3000/'),
      () => new Response('live'),
    )
    expect(await response.text()).toBe('live')
  })
})
