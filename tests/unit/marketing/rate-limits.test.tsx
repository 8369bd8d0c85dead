import { describe, expect, it } from 'vitest'
import { RateLimits } from '~/features/marketing/product/rate-limits'
import { renderInLocale, textsOf } from '../support/render'

describe('rate-limit table', () => {
  it.each(['embeddings', 'reranker', 'deepsearch', 'classifier', 'reader', 'segmenter'] as const)(
    'holds only numbers in the requests-per-minute column on the %s page',
    async (product) => {
      const html = await renderInLocale(<RateLimits product={product} />)
      const limits = textsOf(html, 'td')
      expect(limits.length).toBeGreaterThanOrEqual(3)
      for (const limit of limits) expect(limit).toMatch(/^\d{1,3}(,\d{3})*$/)
    },
  )

  it('says under the table that an API needs a key, and lists calls without one where it does not', async () => {
    const embeddings = await renderInLocale(<RateLimits product="embeddings" />)
    expect(textsOf(embeddings, 'th')).not.toContain('Without a key')
    expect(textsOf(embeddings, 'p')).toEqual(['This API answers only requests with a key.'])
    const reader = await renderInLocale(<RateLimits product="reader" />)
    expect(textsOf(reader, 'th')).toContain('Without a key')
    expect(textsOf(reader, 'p')).toEqual([])
  })
})
