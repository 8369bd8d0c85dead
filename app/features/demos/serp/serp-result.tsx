import { Trans, useLingui } from '@lingui/react/macro'
import { LoaderCircle } from 'lucide-react'
import type { DeepSearchView } from '../lib/deepsearch-stream'
import { CitedAnswer } from '../parts/cited-answer'

/** `https://site/a/b?c` → `site › a › b`, the way result pages show where a result lives. */
function breadcrumb(url: string): string {
  try {
    const { host, pathname } = new URL(url)
    return [host, ...pathname.split('/').filter(Boolean)].join(' › ')
  } catch {
    return url
  }
}

/**
 * A results page composed by deep search: an overview answer citing its sources, then each source as a
 * result (title, where it lives, date, and the quote that answers), then the other pages it read. While
 * the search runs, the pages it opens appear as they are read.
 */
export function SerpResult({ view, live }: { view: DeepSearchView; live: boolean }) {
  const { i18n } = useLingui()
  const reading = view.steps.filter((step) => step.url)
  const current = view.steps.at(-1)
  const cited = new Set(view.citations.map((citation) => citation.url))
  const alsoRead = view.readURLs.filter((url) => !cited.has(url))
  return (
    <div data-testid="serp-result" data-live={live} className="flex min-w-0 flex-col gap-4">
      {live && current && (
        <p className="flex items-center gap-2 text-xs text-muted-foreground" aria-live="off">
          <LoaderCircle aria-hidden className="size-3.5 shrink-0 animate-spin" />
          <span className="min-w-0 truncate">{current.text}</span>
        </p>
      )}
      {view.answer && (
        <section aria-labelledby="serp-overview" className="rounded-lg border bg-accent/40 p-4">
          <h4 id="serp-overview" className="mb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            <Trans>Overview</Trans>
          </h4>
          <CitedAnswer answer={view.answer} idPrefix="serp-result" className="text-sm leading-relaxed" />
        </section>
      )}
      {view.citations.length > 0 ? (
        <ol data-testid="serp-results" className="flex flex-col gap-5">
          {view.citations.map((citation, i) => (
            <li key={i} id={`serp-result-${i + 1}`} className="flex min-w-0 flex-col gap-0.5">
              <span className="truncate text-xs text-muted-foreground">{breadcrumb(citation.url)}</span>
              <a
                href={citation.url}
                rel="noreferrer"
                data-testid="serp-title"
                className="text-base font-medium break-words text-primary underline-offset-4 hover:underline"
              >
                {citation.title}
              </a>
              <p className="text-sm break-words">
                <span className="text-muted-foreground">
                  {i18n.date(new Date(citation.dateTime), { dateStyle: 'medium' })} —{' '}
                </span>
                {citation.exactQuote}
              </p>
            </li>
          ))}
        </ol>
      ) : (
        reading.length > 0 && (
          <ul data-testid="serp-reading" className="flex flex-col gap-1 text-xs text-muted-foreground">
            {reading.map((step, i) => (
              <li key={i} className="truncate">
                {breadcrumb(step.url!)}
              </li>
            ))}
          </ul>
        )
      )}
      {!live && alsoRead.length > 0 && (
        <section aria-labelledby="serp-also" className="flex flex-col gap-1">
          <h4 id="serp-also" className="text-xs font-semibold text-muted-foreground">
            <Trans>Also read</Trans>
          </h4>
          <ul className="flex flex-col gap-1 text-xs">
            {alsoRead.map((url) => (
              <li key={url} className="truncate">
                <a href={url} rel="noreferrer" className="text-primary underline-offset-4 hover:underline">
                  {breadcrumb(url)}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  )
}
