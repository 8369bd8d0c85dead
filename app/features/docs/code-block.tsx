import { useLingui } from '@lingui/react/macro'
import { Check, Copy } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'

/**
 * One fenced block of a documentation page, with its kind and a copy button. Samples the tests run (`sh test`)
 * are named so; an answer block (`json answer`) is named as the answer of the sample above it.
 */
export function CodeBlock({
  code,
  language,
  runnable,
  answer,
}: {
  code: string
  language: string
  runnable: boolean
  answer: boolean
}) {
  const { t } = useLingui()
  const [copied, setCopied] = useState<'yes' | 'failed'>()
  const label = answer
    ? t`The answer`
    : runnable
      ? t`Shell, checked by our tests`
      : language === 'sh' || language === 'bash'
        ? t`Shell`
        : language.toUpperCase() || t`Code`

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code)
      setCopied('yes')
    } catch {
      setCopied('failed')
    }
    setTimeout(() => setCopied(undefined), 2000)
  }

  return (
    <figure className="min-w-0 overflow-hidden rounded-lg border bg-card" data-code-block={language}>
      <figcaption className="flex flex-wrap items-center justify-between gap-x-2 border-b px-3 py-1 text-xs font-medium text-muted-foreground">
        <span>{label}</span>
        <Button type="button" variant="ghost" size="sm" onClick={copy}>
          {copied === 'yes' ? <Check aria-hidden /> : <Copy aria-hidden />}
          <span aria-live="polite">
            {copied === 'yes' ? t`Copied` : copied === 'failed' ? t`Copy failed` : t`Copy`}
          </span>
        </Button>
      </figcaption>
      <pre
        tabIndex={0}
        aria-label={label}
        className="overflow-x-auto bg-muted/50 p-4 font-mono text-[13px] leading-relaxed focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <code translate="no">{code}</code>
      </pre>
    </figure>
  )
}
