import { describe, expect, it } from 'vitest'
import { routePattern } from '~/server/http/route-pattern'

describe('routePattern (the /metrics route label)', () => {
  it('keeps an API path’s shape with its ids as :id', () => {
    expect(routePattern('/v1/bulk-embeddings/6f1c2a9e-0000-4000-8000-000000000000/cancel', 200)).toBe(
      '/v1/bulk-embeddings/:id/cancel',
    )
    expect(routePattern('/api/v1/account/keys/k_123/reveal', 200)).toBe('/api/v1/account/keys/:id/reveal')
    expect(routePattern('/api/v1/account/keys/claim', 200)).toBe('/api/v1/account/keys/claim')
    expect(routePattern('/api/v1/models/slug/embeddings-v3', 200)).toBe('/api/v1/models/slug/:id')
    expect(routePattern('/v1/embeddings', 402)).toBe('/v1/embeddings')
  })

  it('folds unbounded paths into one label each', () => {
    expect(routePattern('/r/https://example.com/a?b=c', 200)).toBe('/r/*')
    expect(routePattern('/de/news/some-post', 200)).toBe('page')
    expect(routePattern('/wp-admin/setup.php', 404)).toBe('unmatched')
    expect(routePattern('/v1/no-such-api', 404)).toBe('unmatched')
    expect(routePattern('/healthz', 503)).toBe('/healthz')
    expect(routePattern('/metrics', 401)).toBe('/metrics')
  })
})
