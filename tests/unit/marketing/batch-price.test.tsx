import { describe, expect, it } from 'vitest'
import { BatchPrice } from '~/features/marketing/product/batch-price'
import { renderInLocale, textsOf } from '../support/render'

describe("the Batch API's price on the pricing panels", () => {
  it.each(['embeddings', 'reranker', 'classifier'] as const)('the %s page says batches cost half', async (product) => {
    const html = await renderInLocale(<BatchPrice product={product} />)
    expect(textsOf(html, 'p')).toEqual([
      'Sent through the Batch API, the same requests cost 50% of their tokens (OpenAI’s batch discount): upload a file of requests, and every answer is ready within 24 hours.',
    ])
    expect(html).toContain('href="/docs/batches"')
  })

  it.each(['deepsearch', 'reader', 'segmenter'] as const)(
    'the %s page, which a batch cannot run, says nothing',
    async (product) => {
      expect(await renderInLocale(<BatchPrice product={product} />)).toBe('')
    },
  )

  it('writes the share as the locale writes percentages', async () => {
    expect(await renderInLocale(<BatchPrice product="embeddings" />, 'de', '/de')).toMatch(/50\s%/)
  })
})
