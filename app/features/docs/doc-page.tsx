import { useLingui as useLinguiRuntime } from '@lingui/react'
import { Trans, useLingui } from '@lingui/react/macro'
import { ArrowLeft, ArrowRight } from 'lucide-react'
import { docsEntries, getDocsEntry } from '#content/docs-index'
import { LocalizedLink } from '~/components/site/localized-link'
import { CodeBlock } from './code-block'
import { DocsNav } from './docs-nav'
import { EnglishNotice } from './english-notice'
import type { RenderedDoc } from './rendered-doc'

function OnThisPage({ headings, className }: { headings: RenderedDoc['headings']; className?: string }) {
  const { t } = useLingui()
  if (headings.length === 0) return null
  return (
    <nav aria-label={t`On this page`} className={className}>
      <p className="text-sm font-semibold">
        <Trans>On this page</Trans>
      </p>
      <ul lang="en" className="mt-2 space-y-0.5 text-sm">
        {headings.map((heading) => (
          <li key={heading.id} className={heading.level === 3 ? 'pl-3' : undefined}>
            <a href={`#${heading.id}`} className="block rounded px-1 py-1 text-muted-foreground hover:text-foreground">
              {heading.text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/** The previous and next pages in reading order. */
function PageSteps({ slug }: { slug: string }) {
  const { i18n } = useLinguiRuntime()
  const at = docsEntries.findIndex((entry) => entry.slug === slug)
  const previous = docsEntries[at - 1]
  const next = docsEntries[at + 1]
  const step = 'flex min-h-11 flex-1 flex-col rounded-lg border px-4 py-2 text-sm hover:bg-accent'
  return (
    <div className="mt-12 flex flex-col gap-3 border-t pt-6 sm:flex-row">
      {previous && (
        <LocalizedLink to="/{-$locale}/docs/$slug" params={{ slug: previous.slug }} className={step}>
          <span className="inline-flex items-center gap-1 text-muted-foreground">
            <ArrowLeft aria-hidden className="size-4" />
            <Trans>Previous</Trans>
          </span>
          <span className="font-medium">{i18n._(previous.title)}</span>
        </LocalizedLink>
      )}
      {next && (
        <LocalizedLink to="/{-$locale}/docs/$slug" params={{ slug: next.slug }} className={`${step} sm:items-end`}>
          <span className="inline-flex items-center gap-1 text-muted-foreground">
            <Trans>Next</Trans>
            <ArrowRight aria-hidden className="size-4" />
          </span>
          <span className="font-medium">{i18n._(next.title)}</span>
        </LocalizedLink>
      )}
    </div>
  )
}

/** One documentation page: translated title and chrome around the English body the server rendered. */
export function DocPage({ slug, doc }: { slug: string; doc: RenderedDoc }) {
  const { i18n } = useLinguiRuntime()
  const entry = getDocsEntry(slug)
  return (
    <div className="mx-auto grid max-w-6xl gap-x-10 gap-y-6 px-4 py-8 sm:py-12 lg:grid-cols-[13rem_minmax(0,1fr)] xl:grid-cols-[13rem_minmax(0,1fr)_12rem]">
      <DocsNav current={slug} className="lg:col-start-1 lg:row-span-3 lg:row-start-1" />
      <header className="min-w-0 lg:col-start-2 lg:row-start-1">
        <p className="text-sm font-medium text-primary">
          <LocalizedLink to="/{-$locale}/docs" className="hover:underline">
            <Trans>Documentation</Trans>
          </LocalizedLink>
        </p>
        <h1 className="mt-2 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
          {entry ? i18n._(entry.title) : slug}
        </h1>
        {entry && <p className="mt-3 text-lg text-muted-foreground">{i18n._(entry.description)}</p>}
        <EnglishNotice />
      </header>
      <OnThisPage
        headings={doc.headings}
        className="rounded-lg border p-3 lg:col-start-2 lg:row-start-2 xl:sticky xl:top-20 xl:col-start-3 xl:row-span-3 xl:row-start-1 xl:self-start xl:border-0 xl:p-0"
      />
      <div className="min-w-0 lg:col-start-2 lg:row-start-3 xl:row-start-2">
        <div lang="en" className="markdown-prose">
          {doc.blocks.map((block, i) =>
            block.kind === 'html' ? (
              <div key={i} dangerouslySetInnerHTML={{ __html: block.html }} />
            ) : (
              <CodeBlock key={i} {...block} />
            ),
          )}
        </div>
        <PageSteps slug={slug} />
      </div>
    </div>
  )
}
