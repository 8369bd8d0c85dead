import type { NewsPost } from '#content/schemas'

/** A post as lists receive it: everything but the Markdown body. */
export type NewsSummary = Omit<NewsPost, 'body'>
