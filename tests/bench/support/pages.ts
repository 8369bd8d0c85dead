import { posts } from '#content/news'

/**
 * The marketing pages the speed budgets are set on: landing, a product, the catalogue and a news post, en and ja,
 * served prerendered; and two rendered live, as any URL with a query is (a campaign link, a shared link).
 * `LIGHTHOUSE_PAGES` (comma-separated paths) measures others.
 */
export const marketingPages = process.env.LIGHTHOUSE_PAGES?.split(',') ?? [
  ...['/', '/embeddings', '/models', `/news/${posts[0]!.slug}`].flatMap((path) => [
    path,
    path === '/' ? '/ja' : `/ja${path}`,
  ]),
  '/?ref=newsletter',
  '/ja/models?ref=x',
]
