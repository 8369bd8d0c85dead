import { describe, expect, it } from 'vitest'
import { rebase } from '~/server/http/prerendered-origin'

const page = `<link rel="canonical" href="http://localhost:3000/ja/models"/><pre>curl https://api.example.com/v1/embeddings</pre><script>window.__API_BASE_URL__="https://api.example.com"</script>`
const built = { baseUrl: 'http://localhost:3000', apiBaseUrl: 'https://api.example.com' }

describe('a prerendered page served under other origins', () => {
  it('is unchanged under the origins it was built for', () => {
    expect(rebase(page, built, built)).toBe(page)
  })

  it('swaps the public origin and the API base each for its own', () => {
    const served = { baseUrl: 'https://www.lodestar.example', apiBaseUrl: 'https://api.lodestar.example' }
    expect(rebase(page, built, served)).toBe(
      `<link rel="canonical" href="https://www.lodestar.example/ja/models"/><pre>curl https://api.lodestar.example/v1/embeddings</pre><script>window.__API_BASE_URL__="https://api.lodestar.example"</script>`,
    )
  })

  it('keeps an API base that starts with the origin apart from it', () => {
    const nested = { baseUrl: 'http://localhost:3000', apiBaseUrl: 'http://localhost:3000/api' }
    const text = 'http://localhost:3000/news http://localhost:3000/api/v1/rerank'
    expect(rebase(text, nested, { baseUrl: 'https://a.example', apiBaseUrl: 'https://b.example' })).toBe(
      'https://a.example/news https://b.example/v1/rerank',
    )
  })

  it('cannot split one built origin into two served ones: the page renders live instead', () => {
    const together = { baseUrl: 'http://localhost:3000', apiBaseUrl: 'http://localhost:3000' }
    expect(rebase(page, together, { baseUrl: 'https://a.example', apiBaseUrl: 'https://b.example' })).toBeUndefined()
    const same = { baseUrl: 'https://a.example', apiBaseUrl: 'https://a.example' }
    expect(rebase('http://localhost:3000/x', together, same)).toBe('https://a.example/x')
  })
})
