import { useLingui } from '@lingui/react'
import { customerGroups } from '#content/customers'

/**
 * Spec §1: logos grouped by industry. Each is drawn 32 px tall at its own aspect ratio, its declared size
 * reserving the space before it loads; on a column narrower than the logo it scales down whole.
 */
export function CustomerLogos() {
  const { i18n } = useLingui()
  return (
    <div className="grid gap-x-10 gap-y-8 sm:grid-cols-2 lg:grid-cols-3">
      {customerGroups.map((group) => (
        <div key={group.id}>
          <h3 className="text-sm font-semibold text-muted-foreground">{i18n._(group.label)}</h3>
          <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-2">
            {group.customers.map((customer) => (
              <li key={customer.slug}>
                <img
                  src={customer.logo}
                  alt={customer.name}
                  width={customer.width}
                  height={customer.height}
                  loading="lazy"
                  decoding="async"
                  className="h-8 w-auto max-w-full object-contain object-left dark:brightness-200"
                />
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  )
}
