import { describe, expect, it } from 'vitest'
import { productKeys } from '#content/vocabulary'
import { KEY, samplesFor } from '~/features/marketing/product/samples'

describe('product code samples', () => {
  it('puts the API key into every sample of every product', () => {
    for (const product of productKeys) {
      for (const code of Object.values(samplesFor(product))) expect(code).toContain(`Bearer ${KEY}`)
    }
  })

  it('calls the documented endpoints', () => {
    expect(samplesFor('embeddings').curl).toContain('/v1/embeddings')
    expect(samplesFor('reranker').python).toContain('/v1/rerank')
    expect(samplesFor('reader').javascript).toContain('/r/https://example.com')
    expect(samplesFor('deepsearch').curl).toContain('"model": "deepsearch-v1"')
    expect(samplesFor('classifier').curl).toContain('/v1/classify')
    expect(samplesFor('segmenter').curl).toContain('/v1/segment')
  })

  it('writes Python literals, not JSON ones', () => {
    const python = samplesFor('segmenter').python
    expect(python).toContain('"return_chunks": True')
    expect(python).not.toContain(': true')
  })
})
