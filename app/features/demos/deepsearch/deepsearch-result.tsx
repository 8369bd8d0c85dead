import { Plural, Trans, useLingui } from '@lingui/react/macro'
import type { DeepSearchView } from '../lib/deepsearch-stream'
import { CitedAnswer } from '../parts/cited-answer'
import { ThinkSteps } from './think-steps'

/** The reasoning as it streams, then the answer with its numbered sources and the exact quotes they rest on. */
export function DeepSearchResult({ view, live }: { view: DeepSearchView; live: boolean }) {
  const { i18n } = useLingui()
  const steps = view.steps.length
  const read = view.readURLs.length
  return (
    <div data-testid="deepsearch-result" data-live={live} className="flex min-w-0 flex-col gap-4">
      <details open className="rounded-md border bg-muted/30 p-3">
        <summary className="cursor-pointer text-sm font-medium">
          {view.thinking ? (
            <Trans>
              Thinking… (<Plural value={steps} one="# step" other="# steps" />)
            </Trans>
          ) : (
            <Trans>
              Reasoning (<Plural value={steps} one="# step" other="# steps" />)
            </Trans>
          )}
        </summary>
        <div className="mt-2">
          <ThinkSteps steps={view.steps} />
        </div>
      </details>
      {view.answer && <CitedAnswer answer={view.answer} idPrefix="ds-source" className="text-sm leading-relaxed" />}
      {view.citations.length > 0 && (
        <section aria-labelledby="ds-sources" className="flex flex-col gap-2">
          <h4 id="ds-sources" className="text-sm font-semibold">
            <Trans>Sources</Trans>
          </h4>
          <ol data-testid="citations" className="flex flex-col gap-3">
            {view.citations.map((citation, i) => (
              <li key={i} id={`ds-source-${i + 1}`} className="flex min-w-0 flex-col gap-1 text-sm">
                <a
                  href={citation.url}
                  rel="noreferrer"
                  className="font-medium break-words text-primary underline-offset-4 hover:underline"
                >
                  {i + 1}. {citation.title}
                </a>
                <blockquote
                  data-testid="citation-quote"
                  className="border-l-2 pl-3 text-xs break-words text-muted-foreground"
                >
                  {citation.exactQuote}
                </blockquote>
                <span className="text-xs text-muted-foreground">
                  {i18n.date(new Date(citation.dateTime), { dateStyle: 'medium' })}
                </span>
              </li>
            ))}
          </ol>
        </section>
      )}
      {!live && view.usage && (
        <p className="text-xs text-muted-foreground">
          <Trans>
            Read {read} of the <Plural value={view.visitedURLs.length} one="# page" other="# pages" /> it found.
          </Trans>
        </p>
      )}
    </div>
  )
}
