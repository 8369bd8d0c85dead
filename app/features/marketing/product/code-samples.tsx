import { Trans, useLingui } from '@lingui/react/macro'
import { Check, Copy } from 'lucide-react'
import { useId, useRef, useState, type KeyboardEvent } from 'react'
import { Button } from '~/components/ui/button'
import { useUserStore } from '~/lib/settings'
import { cn } from '~/lib/utils'
import { KEY, keyPlaceholders, languages, type Language, type Samples } from './samples'

const tabLabels: Record<Language, string> = { curl: 'cURL', python: 'Python', javascript: 'JavaScript' }

/**
 * Code samples in tabs made of plain buttons (the WAI-ARIA tabs pattern, no library). The visitor's stored
 * key is only known in the browser, so the key is its own `data-client-state` span: the server renders the
 * placeholder there, hidden until mount, and nothing else in the block changes size.
 */
export function CodeSamples({ samples }: { samples: Samples }) {
  const { t } = useLingui()
  const { apiKey } = useUserStore()
  const [active, setActive] = useState<Language>('curl')
  const [copied, setCopied] = useState(false)
  const tabs = useRef<Record<string, HTMLButtonElement | null>>({})
  const id = useId()
  const key = apiKey || keyPlaceholders[active]
  const parts = samples[active].split(KEY)

  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    event.preventDefault()
    const next = languages[(languages.indexOf(active) + step + languages.length) % languages.length]
    setActive(next)
    tabs.current[next]?.focus()
  }

  const copy = async () => {
    await navigator.clipboard.writeText(parts.join(key))
    setCopied(true)
    setTimeout(() => setCopied(false), 2000)
  }

  return (
    <div className="min-w-0 overflow-hidden rounded-xl border bg-card shadow-xs" data-testid="code-samples">
      {/* Wraps: the tabs and a German or Russian "Copy" are wider than a 320 px phone, and the box clips. */}
      <div className="flex flex-wrap items-center justify-between gap-x-2 border-b px-2">
        <div role="tablist" aria-label={t`Code samples`} className="flex flex-wrap" onKeyDown={onKeyDown}>
          {languages.map((language) => (
            <button
              key={language}
              ref={(el) => void (tabs.current[language] = el)}
              type="button"
              role="tab"
              id={`${id}-${language}`}
              aria-selected={active === language}
              aria-controls={`${id}-panel`}
              tabIndex={active === language ? 0 : -1}
              onClick={() => setActive(language)}
              className={cn(
                '-mb-px border-b-2 px-3 py-2.5 text-sm font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
                active === language
                  ? 'border-primary text-foreground'
                  : 'border-transparent text-muted-foreground hover:text-foreground',
              )}
            >
              {tabLabels[language]}
            </button>
          ))}
        </div>
        <Button type="button" variant="ghost" size="sm" onClick={copy}>
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          <span aria-live="polite">{copied ? t`Copied` : t`Copy`}</span>
        </Button>
      </div>
      <pre
        id={`${id}-panel`}
        role="tabpanel"
        aria-labelledby={`${id}-${active}`}
        tabIndex={0}
        className="overflow-x-auto p-4 text-[13px] leading-relaxed"
      >
        <code>
          {parts.map((part, i) => (
            <span key={i}>
              {i > 0 && (
                <span data-client-state className="rounded bg-accent px-0.5 text-accent-foreground">
                  {key}
                </span>
              )}
              {part}
            </span>
          ))}
        </code>
      </pre>
      <p className="border-t px-4 py-2.5 text-xs text-muted-foreground">
        {apiKey ? (
          <span data-client-state>
            <Trans>Your stored API key is filled in. Keep it secret.</Trans>
          </span>
        ) : (
          <span data-client-state>
            <Trans>
              Set <code>API_KEY</code> to your API key from the dashboard first: <code>export API_KEY=…</code>
            </Trans>
          </span>
        )}
      </p>
    </div>
  )
}
