import { Trans } from '@lingui/react/macro'
import { ArrowLeft } from 'lucide-react'
import { getModel } from '#content/models'
import { CoverPicture } from '~/components/marketing/picture'
import { LocalizedLink } from '~/components/site/localized-link'
import { ContentDate } from '~/components/marketing/content-date'
import type { NewsSummary } from '~/lib/news-summary'

/** One post: English body, translated chrome around it. `html` comes from the server function, never from the bundle. */
export function NewsDetail({ post }: { post: NewsSummary & { html: string } }) {
  const minutes = post.readingMinutes
  const models = post.models.map(getModel).filter((m) => m !== undefined)
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <LocalizedLink
        to="/{-$locale}/news"
        className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
      >
        <ArrowLeft aria-hidden className="size-4" />
        <Trans>All news</Trans>
      </LocalizedLink>
      <header className="mt-6">
        <h1 lang="en" className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
          {post.title}
        </h1>
        <p lang="en" className="mt-4 text-lg text-muted-foreground">
          {post.excerpt}
        </p>
        <p className="mt-5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
          <span>
            <Trans>
              By <span className="font-medium text-foreground">{post.author}</span>
            </Trans>
          </span>
          <span aria-hidden>·</span>
          <ContentDate date={post.date} />
          <span aria-hidden>·</span>
          <span>
            <Trans>{minutes} min read</Trans>
          </span>
        </p>
      </header>
      <div className="mt-8 overflow-hidden rounded-xl border">
        <CoverPicture image={post.cover} alt="" eager />
      </div>
      <div lang="en" className="markdown-prose mt-10" dangerouslySetInnerHTML={{ __html: post.html }} />
      {models.length > 0 && (
        <aside aria-labelledby="post-models" className="mt-12 rounded-xl border bg-muted/40 p-5">
          <h2 id="post-models" className="text-sm font-semibold">
            <Trans>Models in this post</Trans>
          </h2>
          <ul className="mt-3 flex flex-wrap gap-2">
            {models.map((model) => (
              <li key={model.slug}>
                <LocalizedLink
                  to="/{-$locale}/models/$slug"
                  params={{ slug: model.slug }}
                  className="inline-flex rounded-full border bg-background px-3 py-1 text-sm font-medium hover:bg-accent"
                >
                  {model.name}
                </LocalizedLink>
              </li>
            ))}
          </ul>
        </aside>
      )}
    </article>
  )
}
