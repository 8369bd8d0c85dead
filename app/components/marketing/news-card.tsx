import { Trans } from '@lingui/react/macro'
import { CoverPicture } from '~/components/marketing/picture'
import { LocalizedLink } from '~/components/site/localized-link'
import { ContentDate } from '~/components/marketing/content-date'
import { cn } from '~/lib/utils'
import type { NewsSummary } from '~/lib/news-summary'

/**
 * A post in a list: cover, title linking to the post (the whole card is clickable), excerpt, date, author
 * and reading time. `featured` lays the newest post out side by side on wide screens.
 */
export function NewsCard({
  post,
  eager = false,
  featured = false,
}: {
  post: NewsSummary
  eager?: boolean
  featured?: boolean
}) {
  const minutes = post.readingMinutes
  return (
    <article
      className={cn(
        'group relative flex h-full flex-col overflow-hidden rounded-xl border bg-card shadow-xs transition-shadow focus-within:ring-[3px] focus-within:ring-ring/50 hover:shadow-md',
        featured && 'lg:grid lg:grid-cols-2',
      )}
    >
      <CoverPicture image={post.cover} alt="" eager={eager} className="aspect-[1200/630]" />
      <div className={cn('flex flex-1 flex-col gap-2 p-5', featured && 'lg:justify-center lg:p-8')}>
        <h3 lang="en" className={cn('text-lg font-semibold leading-snug', featured && 'lg:text-2xl')}>
          <LocalizedLink
            to="/{-$locale}/news/$slug"
            params={{ slug: post.slug }}
            className="outline-none after:absolute after:inset-0 underline-offset-4 group-hover:underline"
          >
            {post.title}
          </LocalizedLink>
        </h3>
        <p lang="en" className={cn('text-sm text-muted-foreground', featured ? 'lg:text-base' : 'line-clamp-3')}>
          {post.excerpt}
        </p>
        <p className={cn('flex flex-wrap gap-x-2 pt-2 text-xs text-muted-foreground', !featured && 'mt-auto')}>
          <ContentDate date={post.date} />
          <span aria-hidden>·</span>
          <span>{post.author}</span>
          <span aria-hidden>·</span>
          <span>
            <Trans>{minutes} min read</Trans>
          </span>
        </p>
      </div>
    </article>
  )
}
