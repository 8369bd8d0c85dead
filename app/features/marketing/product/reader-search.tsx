import { Trans } from '@lingui/react/macro'
import { Search } from 'lucide-react'
import { Section } from '../section'

/** The reader's second mode, the target of the products menu's "Search the web" entry. */
export function ReaderSearchSection() {
  return (
    <Section id="search" title={<Trans>Search the web</Trans>}>
      <div className="flex gap-4 rounded-xl border bg-card p-6 shadow-xs">
        <Search aria-hidden className="mt-1 size-5 shrink-0 text-primary" />
        <div className="max-w-3xl space-y-2 text-muted-foreground">
          <p>
            <Trans>
              Give Reader a question instead of a URL and it runs a web search, then reads the top results and returns
              each one as clean Markdown with its title and URL. One call replaces a search API, a crawler and an HTML
              converter.
            </Trans>
          </p>
          <p>
            <Trans>
              Use it to ground a language model in current pages, or to collect sources for an agent before it answers.
            </Trans>
          </p>
        </div>
      </div>
    </Section>
  )
}
