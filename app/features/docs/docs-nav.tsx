import { useLingui as useLinguiRuntime } from '@lingui/react'
import { Trans, useLingui } from '@lingui/react/macro'
import { docsIndex } from '#content/docs-index'
import { LocalizedLink } from '~/components/site/localized-link'
import { cn } from '~/lib/utils'

/** The list of every documentation page by section; `current` is marked for screen readers and by sight. */
function PageList({ current }: { current?: string }) {
  const { i18n } = useLinguiRuntime()
  return (
    <ul className="space-y-5">
      {docsIndex.map((section) => (
        <li key={section.id}>
          <p className="px-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
            {i18n._(section.title)}
          </p>
          <ul className="mt-1.5 space-y-0.5">
            {section.pages.map((page) => (
              <li key={page.slug}>
                <LocalizedLink
                  to="/{-$locale}/docs/$slug"
                  params={{ slug: page.slug }}
                  aria-current={page.slug === current ? 'page' : undefined}
                  className={cn(
                    'block rounded-md px-2 py-1 text-sm hover:bg-accent hover:text-foreground',
                    page.slug === current ? 'bg-accent font-medium text-foreground' : 'text-muted-foreground',
                  )}
                >
                  {i18n._(page.title)}
                </LocalizedLink>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  )
}

/**
 * The documentation's navigation: a sticky column on wide screens, a disclosure above the page on phones (its
 * closed `<details>` works before the app runs). Only one of the two is displayed at any width.
 */
export function DocsNav({ current, className }: { current?: string; className?: string }) {
  const { t } = useLingui()
  return (
    <div className={className}>
      <details className="rounded-lg border lg:hidden">
        <summary className="cursor-pointer px-3 py-2 text-sm font-medium">
          <Trans>All documentation pages</Trans>
        </summary>
        <nav aria-label={t`Documentation`} className="border-t px-1 py-3">
          <PageList current={current} />
        </nav>
      </details>
      <nav
        aria-label={t`Documentation`}
        className="hidden lg:sticky lg:top-20 lg:block lg:max-h-[calc(100vh-6rem)] lg:overflow-y-auto lg:pr-2"
      >
        <LocalizedLink to="/{-$locale}/docs" className="mb-4 block px-2 text-sm font-semibold hover:text-primary">
          <Trans>Documentation</Trans>
        </LocalizedLink>
        <PageList current={current} />
      </nav>
    </div>
  )
}
