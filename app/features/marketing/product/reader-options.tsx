import { Trans } from '@lingui/react/macro'
import { SlidersHorizontal } from 'lucide-react'
import { Section } from '~/components/marketing/section'

/** What the reader's request headers do, the target of the products menu's "Shape the output" entry. */
export function ReaderOptionsSection() {
  return (
    <Section id="options" title={<Trans>Shape the output</Trans>}>
      <div className="flex gap-4 rounded-xl border bg-card p-6 shadow-xs">
        <SlidersHorizontal aria-hidden className="mt-1 size-5 shrink-0 text-primary" />
        <div className="max-w-3xl space-y-2 text-muted-foreground">
          <p>
            <Trans>
              By default you get the article as Markdown; X-Return-Format asks for the whole page as Markdown, its HTML
              or plain text instead. Keep only the part you need with X-Target-Selector, or drop menus and footers with
              X-Remove-Selector, using CSS selectors.
            </Trans>
          </p>
          <p>
            <Trans>
              Add a list of the page's links or images, answer as JSON, or stream the text as it is read. Pages are kept
              in a cache for an hour unless you send X-No-Cache.
            </Trans>
          </p>
          <p>
            <Trans>
              Pages that build their text with JavaScript are read in a real browser with X-Engine: browser, which can
              also take a screenshot of the first screen or the whole page. PDFs are read too. A browser read costs the
              same tokens as any other: those of the text it answers; each screenshot counts 1,000 tokens.
            </Trans>
          </p>
        </div>
      </div>
    </Section>
  )
}
