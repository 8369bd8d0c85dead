import { Trans, useLingui } from '@lingui/react/macro'
import { useId, useState, type KeyboardEvent } from 'react'
import { cn } from '~/lib/utils'

export type SegmentToken = [text: string, ids: number[]]

/** Beyond this many tokens the page would slow down for nothing: the rest is counted, not drawn. */
const maxShown = 2000

/** Control characters and lone whitespace made visible enough to hover. */
const visible = (text: string) => (text === '' ? '∅' : text)

/**
 * The text with its token boundaries as alternating backgrounds. Hovering a token, or moving through them
 * with the arrow keys once the strip has focus, names its ids below (a listbox with an active option);
 * the line keeps its height while empty, so nothing moves.
 */
export function TokenStrip({ tokens, label }: { tokens: SegmentToken[]; label: string }) {
  const { i18n } = useLingui()
  const id = useId()
  const [active, setActive] = useState<number>()
  const shown = tokens.slice(0, maxShown)
  const current = active === undefined ? undefined : shown[active]

  const onKeyDown = (event: KeyboardEvent) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key]
    if (step === undefined || shown.length === 0) return
    event.preventDefault()
    setActive((i) => Math.min(shown.length - 1, Math.max(0, (i ?? -step) + step)))
  }

  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <div
        role="listbox"
        aria-label={label}
        tabIndex={0}
        aria-activedescendant={active === undefined ? undefined : `${id}-${active}`}
        onKeyDown={onKeyDown}
        onFocus={() => setActive((i) => i ?? 0)}
        className="max-h-72 overflow-auto rounded-md border bg-background p-3 font-mono text-[13px] leading-6 break-words whitespace-pre-wrap outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {shown.map(([text, ids], i) => (
          <span
            key={i}
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === active}
            title={ids.join(' ')}
            onMouseEnter={() => setActive(i)}
            className={cn(
              'rounded-sm',
              i % 2 === 0 ? 'bg-chart-1/15' : 'bg-chart-3/25',
              i === active && 'outline-2 outline-ring',
            )}
          >
            {visible(text)}
          </span>
        ))}
      </div>
      <p aria-live="polite" className="min-h-5 text-xs text-muted-foreground">
        {current ? (
          <Trans>
            Token {i18n.number((active ?? 0) + 1)}: <code translate="no">{JSON.stringify(current[0])}</code>, ids{' '}
            <code translate="no">{current[1].join(', ')}</code>
          </Trans>
        ) : tokens.length > maxShown ? (
          <Trans>
            Showing the first {i18n.number(maxShown)} of {i18n.number(tokens.length)} tokens.
          </Trans>
        ) : null}
      </p>
    </div>
  )
}
