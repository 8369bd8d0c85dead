import { Trans, useLingui } from '@lingui/react/macro'
import { useId, useRef, useState, type KeyboardEvent } from 'react'
import { cn } from '~/lib/utils'
import type { ReaderSnapshot } from './reader-request'

const views = ['content', 'screenshot', 'json'] as const
type View = (typeof views)[number]

const panel =
  'h-72 overflow-auto rounded-md border bg-muted/40 p-3 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50'

/**
 * The answer three ways, in tabs (the WAI-ARIA tabs pattern, plain buttons): the text as the reader wrote it,
 * the screenshot when one was asked for, and the JSON snapshot itself. Each panel is as tall as the others,
 * so switching does not move the page.
 */
export function ReaderViews({ page, live }: { page: ReaderSnapshot; live: boolean }) {
  const { t } = useLingui()
  const [active, setActive] = useState<View>('content')
  const tabs = useRef<Record<string, HTMLButtonElement | null>>({})
  const id = useId()
  const labels: Record<View, string> = {
    content: page.format === 'html' ? t`HTML` : page.format === 'text' ? t`Text` : t`Markdown`,
    screenshot: t`Screenshot`,
    json: t`JSON`,
  }
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    event.preventDefault()
    const next = views[(views.indexOf(active) + step + views.length) % views.length]
    setActive(next)
    tabs.current[next]?.focus()
  }
  return (
    <div className="flex min-w-0 flex-col">
      <div role="tablist" aria-label={t`Views of the answer`} className="flex border-b" onKeyDown={onKeyDown}>
        {views.map((view) => (
          <button
            key={view}
            ref={(el) => void (tabs.current[view] = el)}
            type="button"
            role="tab"
            id={`${id}-${view}`}
            data-testid={`reader-view-${view}`}
            aria-selected={active === view}
            aria-controls={`${id}-panel`}
            tabIndex={active === view ? 0 : -1}
            onClick={() => setActive(view)}
            className={cn(
              '-mb-px min-h-10 border-b-2 px-3 py-2 text-sm font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
              active === view
                ? 'border-primary text-foreground'
                : 'border-transparent text-muted-foreground hover:text-foreground',
            )}
          >
            {labels[view]}
          </button>
        ))}
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-${active}`} className="pt-3">
        {active === 'content' && (
          <pre
            data-testid="reader-content"
            tabIndex={0}
            translate="no"
            className={cn(panel, 'text-xs leading-relaxed break-words whitespace-pre-wrap')}
          >
            {page.content}
          </pre>
        )}
        {active === 'screenshot' && (
          <div data-testid="reader-shot-view" tabIndex={0} className={cn(panel, 'text-sm')}>
            {page.screenshotUrl ? (
              <a href={page.screenshotUrl} target="_blank" rel="noreferrer">
                <img
                  src={page.screenshotUrl}
                  alt={page.title ? t`Screenshot of ${page.title}` : t`Screenshot of the page`}
                  className="w-full rounded border bg-background"
                />
              </a>
            ) : live ? (
              <Trans>The screenshot comes with the complete page.</Trans>
            ) : (
              <Trans>No screenshot: tick “Take a screenshot (browser)” and read the page again.</Trans>
            )}
          </div>
        )}
        {active === 'json' && (
          <pre
            data-testid="reader-json"
            tabIndex={0}
            translate="no"
            className={cn(panel, 'text-xs leading-relaxed break-words whitespace-pre-wrap')}
          >
            {JSON.stringify(page.json, null, 2)}
          </pre>
        )}
      </div>
    </div>
  )
}
