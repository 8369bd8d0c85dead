import { docsEntries } from '#content/docs-index'
import { models } from '#content/models'
import { posts } from '#content/news'

/** Every public page without locale prefix (spec §2): the sitemap, the prerenderer and the tests walk this list. */
export const staticPublicPaths = [
  '/',
  '/about-us',
  '/contact-sales',
  '/internship',
  '/legal',
  '/news',
  '/models',
  '/embeddings',
  '/reranker',
  '/reader',
  '/deepsearch',
  '/fine-tuning',
  '/llm-serp-demo',
  '/segmenter',
  '/classifier',
  '/tokenizer',
  '/api-reference',
  '/docs',
] as const

export function publicPaths(): string[] {
  return [
    ...staticPublicPaths,
    ...models.map((m) => `/models/${m.slug}`),
    ...posts.map((p) => `/news/${p.slug}`),
    ...docsEntries.map((entry) => `/docs/${entry.slug}`),
  ]
}
