import { Trans } from '@lingui/react/macro'
import { CoverPicture } from '~/components/marketing/picture'
import { LocalizedLink } from '~/components/site/localized-link'
import { ContentDate } from '~/features/marketing/content-date'
import type { NewsSummary } from './types'

/** A post in a list: cover, title linking to the post, excerpt, date, author and reading time. */
export function NewsCard({ post, eager = false, headingLevel = 3 }: { post: NewsSummary; eager?: boolean; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const minutes = post.readingMinutes
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-xl border bg-card shadow-xs transition-shadow focus-within:ring-[3px] focus-within:ring-ring/50 hover:shadow-md">
      <CoverPicture image={post.cover} alt="" eager={eager} className="aspect-[1200/630]" />
      <div className="flex flex-1 flex-col gap-2 p-5">
        <Heading lang="en" className="text-lg font-semibold leading-snug">
          <LocalizedLink to={`/news/${post.slug}`} className="outline-none after:absolute after:inset-0 group-hover:underline underline-offset-4">
            {post.title}
          </LocalizedLink>
        </Heading>
        <p lang="en" className="line-clamp-3 text-sm text-muted-foreground">{post.excerpt}</p>
        <p className="mt-auto flex flex-wrap gap-x-2 pt-2 text-xs text-muted-foreground">
          <ContentDate date={post.date} style="long" />
          <span aria-hidden>·</span>
          <span>{post.author}</span>
          <span aria-hidden>·</span>
          <span><Trans>{minutes} min read</Trans></span>
        </p>
      </div>
    </article>
  )
}
