import { useLingui } from '@lingui/react'
import { ArrowRight } from 'lucide-react'
import type { Product } from '#content/schemas'
import { LocalizedLink } from '~/components/site/localized-link'
import { spectrumGradient } from './spectrum'

/** A product of the family: the whole card is one link, named by its heading. */
export function ProductCard({ product }: { product: Product }) {
  const { i18n } = useLingui()
  return (
    <div className="group relative flex h-full flex-col overflow-hidden rounded-xl border bg-card p-5 shadow-xs transition-shadow focus-within:ring-[3px] focus-within:ring-ring/50 hover:shadow-md">
      <div
        aria-hidden
        className="absolute inset-x-0 top-0 h-1"
        style={{ backgroundImage: spectrumGradient(product.spectrum, 90) }}
      />
      <div className="flex items-center gap-3">
        <span className="flex size-10 items-center justify-center rounded-lg bg-muted">
          <img src={product.icon} alt="" width={24} height={24} loading="lazy" className="size-6 dark:invert" />
        </span>
        <h3 className="text-lg font-semibold">
          <LocalizedLink to={product.homepage} className="outline-none after:absolute after:inset-0">
            {i18n._(product.label)}
          </LocalizedLink>
        </h3>
      </div>
      <p className="mt-3 font-medium">{i18n._(product.caption)}</p>
      <p className="mt-2 line-clamp-3 text-sm text-muted-foreground">{i18n._(product.description)}</p>
      <ArrowRight aria-hidden className="mt-4 size-4 text-primary transition-transform group-hover:translate-x-1" />
    </div>
  )
}
