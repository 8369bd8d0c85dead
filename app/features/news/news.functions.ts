import { createServerFn } from '@tanstack/react-start'
import * as v from 'valibot'
import { getPost, posts } from '#content/news'
import { validatorOf } from '~/server/http/input'

/**
 * Code blocks and tables may scroll sideways on a phone; a scrolling region must be reachable by keyboard
 * (axe: scrollable-region-focusable), so the rendered HTML makes them focusable.
 */
function focusableScrollers(html: string): string {
  return html.replaceAll('<pre>', '<pre tabindex="0">').replaceAll('<table>', '<table tabindex="0">')
}

/** News bodies stay on the server: pages receive one post at a time instead of every post in a bundle. */
export const fetchNewsPost = createServerFn({ method: 'GET' })
  // Any string: a slug no post has (however long) is a page not found, not a failure; other shapes get 422.
  .validator(validatorOf(v.object({ slug: v.string() })))
  .handler(async ({ data }) => {
    const post = getPost(data.slug)
    if (!post) return null
    const { marked } = await import('marked')
    const { body: _body, ...summary } = post
    return { ...summary, html: focusableScrollers(await marked.parse(post.body)) }
  })

/** The list without bodies. */
export const fetchNewsList = createServerFn({ method: 'GET' }).handler(async () =>
  posts.map(({ body: _body, ...summary }) => summary),
)
