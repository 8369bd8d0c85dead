import { useLingui } from '@lingui/react'
import { pageMeta, type PageKey } from './page-meta'

/** A page whose body the marketing issue fills; its title and description are already real. */
export function PlaceholderPage({ page }: { page: PageKey }) {
  const { i18n } = useLingui()
  const meta = pageMeta[page]
  return (
    <section className="mx-auto max-w-6xl px-4 py-16">
      <h1 className="text-4xl font-semibold tracking-tight">{i18n._(meta.title)}</h1>
      <p className="mt-4 max-w-2xl text-lg text-muted-foreground">{i18n._(meta.description)}</p>
    </section>
  )
}
