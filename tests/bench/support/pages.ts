import { posts } from '#content/news'

/** The marketing pages the speed budgets are set on: landing, a product, the catalogue and a news post, en and ja. */
export const marketingPages = ['/', '/embeddings', '/models', `/news/${posts[0]!.slug}`].flatMap((path) => [
  path,
  path === '/' ? '/ja' : `/ja${path}`,
])
