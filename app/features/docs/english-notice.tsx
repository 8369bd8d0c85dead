import { Trans } from '@lingui/react/macro'
import { Languages } from 'lucide-react'
import { sourceLocale } from '../../../app.config'
import { useLocale } from '~/lib/use-locale'

/** Said in the visitor's language when it is not English: the pages' text and samples are written in English. */
export function EnglishNotice() {
  if (useLocale() === sourceLocale) return null
  return (
    <p className="mt-4 flex items-start gap-2 rounded-md border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">
      <Languages aria-hidden className="mt-0.5 size-4 shrink-0" />
      <span>
        <Trans>The documentation is written in English; the navigation and page titles are in your language.</Trans>
      </span>
    </p>
  )
}
