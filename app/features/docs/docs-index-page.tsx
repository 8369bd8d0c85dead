import { useLingui as useLinguiRuntime } from '@lingui/react'
import { Trans } from '@lingui/react/macro'
import { docsIndex } from '#content/docs-index'
import { PageHeader } from '~/components/marketing/section'
import { LocalizedLink } from '~/components/site/localized-link'
import { EnglishNotice } from './english-notice'

/** `/docs`: every page by section, each with what it answers. */
export function DocsIndexPage() {
  const { i18n } = useLinguiRuntime()
  return (
    <>
      <PageHeader
        eyebrow={<Trans>Developers</Trans>}
        title={<Trans>Documentation</Trans>}
        lead={
          <Trans>
            How to call the APIs: a quickstart, each API with every option and error, limits, billing and running your
            own server. Every API call in these pages’ samples is run by our tests.
          </Trans>
        }
      >
        <EnglishNotice />
        <p className="mt-6 text-sm">
          <LocalizedLink
            to="/{-$locale}/api-reference"
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            <Trans>The API reference lists every endpoint with its schemas</Trans>
          </LocalizedLink>
        </p>
      </PageHeader>
      <div className="mx-auto max-w-6xl space-y-12 px-4 py-12">
        {docsIndex.map((section) => (
          <section key={section.id} aria-labelledby={`docs-${section.id}`}>
            <h2 id={`docs-${section.id}`} className="text-xl font-semibold tracking-tight">
              {i18n._(section.title)}
            </h2>
            <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {section.pages.map((page) => (
                <li key={page.slug}>
                  <LocalizedLink
                    to="/{-$locale}/docs/$slug"
                    params={{ slug: page.slug }}
                    className="flex h-full flex-col rounded-xl border bg-card p-5 hover:bg-accent"
                  >
                    <span className="font-medium">{i18n._(page.title)}</span>
                    <span className="mt-1 text-sm text-muted-foreground">{i18n._(page.description)}</span>
                  </LocalizedLink>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  )
}
