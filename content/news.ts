import * as v from 'valibot'
import { parseFrontmatter, readingMinutes } from './frontmatter'
import { coverFromSvg, newsPost, type NewsPost } from './schemas'

const sources = import.meta.glob<string>('./news/*.md', { query: '?raw', import: 'default', eager: true })

function toPost(file: string, source: string): NewsPost {
  const { data, body } = parseFrontmatter(source, file)
  const candidate = {
    ...data,
    cover: typeof data.cover === 'string' ? coverFromSvg(data.cover) : data.cover,
    models: data.models ?? [],
    tags: data.tags ?? [],
    readingMinutes: readingMinutes(body),
    body,
  }
  const result = v.safeParse(newsPost, candidate)
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '?'} ${issue.message}`)
    throw new Error(`${file}: ${problems.join('; ')}`)
  }
  const expected = file.replace(/^.*\//, '').replace(/\.md$/, '')
  if (result.output.slug !== expected) throw new Error(`${file}: slug "${result.output.slug}" must match the file name`)
  return result.output
}

/** Newest first; yyyy/mm/dd strings sort chronologically as text. */
export const posts: NewsPost[] = Object.entries(sources)
  .map(([file, source]) => toPost(file, source))
  .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug))

export function getPost(slug: string): NewsPost | undefined {
  return posts.find((p) => p.slug === slug)
}
