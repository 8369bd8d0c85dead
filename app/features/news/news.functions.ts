import { createServerFn } from '@tanstack/react-start'
import * as v from 'valibot'
import { getPost, posts } from '#content/news'

/** News bodies stay on the server: pages receive one post at a time instead of every post in a bundle. */
export const fetchNewsPost = createServerFn({ method: 'GET' })
  .validator(v.object({ slug: v.pipe(v.string(), v.maxLength(200)) }))
  .handler(async ({ data }) => {
    const post = getPost(data.slug)
    if (!post) return null
    const { marked } = await import('marked')
    return { ...post, html: await marked.parse(post.body) }
  })

/** The list without bodies. */
export const fetchNewsList = createServerFn({ method: 'GET' }).handler(async () =>
  posts.map(({ body: _body, ...summary }) => summary),
)
