import { Trans } from '@lingui/react/macro'
import { PageHeader } from '~/components/marketing/section'
import { NewsCard } from '~/components/marketing/news-card'
import type { NewsSummary } from '~/lib/news-summary'

export function NewsListPage({ posts }: { posts: NewsSummary[] }) {
  const [latest, ...older] = posts
  return (
    <>
      <PageHeader
        title={<Trans>News</Trans>}
        lead={<Trans>Model releases, research notes and product updates from the team. Posts are in English.</Trans>}
      />
      <div className="mx-auto max-w-6xl px-4 py-12">
        <h2 className="sr-only">
          <Trans>All posts</Trans>
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {latest && (
            <li className="sm:col-span-2 lg:col-span-3">
              <NewsCard post={latest} eager featured />
            </li>
          )}
          {older.map((post) => (
            <li key={post.slug}>
              <NewsCard post={post} />
            </li>
          ))}
        </ul>
      </div>
    </>
  )
}
