import { describe, expect, it } from 'vitest'
import { productKeys } from '#content/vocabulary'
import { heroSample } from '~/features/marketing/landing/hero-sample'
import { KEY, keyPlaceholders, samplesFor } from '~/features/marketing/product/samples'

const apiBase = 'https://api.lodestar.test'

describe('product code samples', () => {
  it('puts the API key into every sample of every product', () => {
    for (const product of productKeys) {
      for (const code of Object.values(samplesFor(product, apiBase))) expect(code).toContain(`Bearer ${KEY}`)
    }
  })

  it('reads the key from API_KEY in every language until one is stored, as the documentation does', () => {
    const samples = samplesFor('embeddings', apiBase)
    const filled = (language: keyof typeof samples) => samples[language].replace(KEY, keyPlaceholders[language])
    expect(filled('curl')).toContain('-H "Authorization: Bearer $API_KEY"')
    expect(filled('python')).toMatch(/^import os\n/)
    expect(filled('python')).toContain(`"Authorization": f"Bearer {os.environ['API_KEY']}"`)
    expect(filled('javascript')).toContain('"Authorization": `Bearer ${process.env.API_KEY}`')
    // A stored key in the same place is a plain string of each language.
    expect(samples.python.replace(KEY, 'lds_k')).toContain('f"Bearer lds_k"')
    expect(samples.javascript.replace(KEY, 'lds_k')).toContain('`Bearer lds_k`')
  })

  it('calls the documented endpoints', () => {
    expect(samplesFor('embeddings', apiBase).curl).toContain('/v1/embeddings')
    expect(samplesFor('reranker', apiBase).python).toContain('/v1/rerank')
    expect(samplesFor('reader', apiBase).javascript).toContain('/r/https://example.com')
    expect(samplesFor('deepsearch', apiBase).curl).toContain('"model": "deepsearch-v1"')
    expect(samplesFor('classifier', apiBase).curl).toContain('/v1/classify')
    expect(samplesFor('segmenter', apiBase).curl).toContain('/v1/segment')
  })

  it('calls the configured API base URL in every language', () => {
    for (const code of Object.values(samplesFor('reranker', apiBase))) expect(code).toContain(`${apiBase}/v1/rerank`)
    expect(samplesFor('reader', 'http://localhost:3000').curl).toContain(
      '"http://localhost:3000/r/https://example.com"',
    )
  })

  it("calls the landing hero's rerank on the same API origin as every other sample, with a served model", () => {
    const code = heroSample(apiBase)
    expect(code).toContain(`"${apiBase}/v1/rerank"`)
    // One host: no other address in the command (the hero once called a host that does not resolve).
    expect(code.match(/https?:\/\/[^\s"/]+/g)).toEqual([apiBase])
    expect(code).toContain('"model": "reranker-v3"')
  })

  it('writes Python literals, not JSON ones', () => {
    const python = samplesFor('segmenter', apiBase).python
    expect(python).toContain('"return_chunks": True')
    expect(python).not.toContain(': true')
  })
})
