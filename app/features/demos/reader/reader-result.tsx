import { Plural, Trans, useLingui } from '@lingui/react/macro'
import type { ReaderSnapshot } from './reader-request'
import { ReaderViews } from './reader-views'

/** The page as the reader made it: its title, source, date and engine, the answer in its views, and its summaries. */
export function ReaderResult({ page, live }: { page: ReaderSnapshot; live: boolean }) {
  const { i18n } = useLingui()
  const links = Array.isArray(page.links) ? page.links.length : Object.keys(page.links).length
  const images = Object.keys(page.images).length
  const published = page.publishedTime ? new Date(page.publishedTime) : undefined
  return (
    <div data-testid="reader-result" data-live={live} data-count={page.count} className="flex min-w-0 flex-col gap-3">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">
          <Trans>Title</Trans>
        </dt>
        <dd data-testid="reader-title" className="font-medium break-words">
          {page.title || '—'}
        </dd>
        <dt className="text-muted-foreground">
          <Trans>Source</Trans>
        </dt>
        <dd className="break-all">
          <a href={page.url} rel="noreferrer" className="text-primary underline-offset-4 hover:underline">
            {page.url}
          </a>
        </dd>
        {published && (
          <>
            <dt className="text-muted-foreground">
              <Trans>Published</Trans>
            </dt>
            <dd>{i18n.date(published, { dateStyle: 'long' })}</dd>
          </>
        )}
        {page.engine && (
          <>
            <dt className="text-muted-foreground">
              <Trans>Read by</Trans>
            </dt>
            <dd data-testid="reader-engine" data-engine={page.engine}>
              {page.engine === 'browser' ? <Trans>the browser engine</Trans> : <Trans>a direct fetch</Trans>}
            </dd>
          </>
        )}
      </dl>
      <ReaderViews page={page} live={live} />
      <p className="text-xs text-muted-foreground">
        {live ? (
          <Trans>Snapshot {page.count}, still arriving…</Trans>
        ) : (
          <Trans>
            Complete after <Plural value={page.count} one="# snapshot" other="# snapshots" />.
          </Trans>
        )}{' '}
        {links > 0 && <Plural value={links} one="# link summarised." other="# links summarised." />}{' '}
        {images > 0 && <Plural value={images} one="# image summarised." other="# images summarised." />}
      </p>
    </div>
  )
}
