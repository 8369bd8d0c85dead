import { useLingui } from '@lingui/react/macro'
import { useLingui as useLinguiRuntime } from '@lingui/react'
import { ExternalLink, Menu } from 'lucide-react'
import { enterpriseProducts, legacyProducts, menuProducts } from '#content/products'
import { Button } from '~/components/ui/button'
import { brand } from '#config'
import { DisclosureMenu } from './disclosure-menu'
import { LocaleSwitcher } from './locale-switcher'
import { LocalizedLink } from './localized-link'
import { Logo } from './logo'
import { ThemeToggle } from './theme-toggle'
import { useCompanyLinks } from './company-links'

const topLinkClass =
  'inline-flex h-9 items-center rounded-md px-2 text-sm font-medium text-foreground/80 lg:px-3 hover:bg-accent hover:text-foreground'
const itemClass =
  'flex items-start gap-3 rounded-md px-2 py-2 hover:bg-accent focus-visible:bg-accent focus-visible:outline-none'

function ProductsPanel() {
  const { t } = useLingui()
  const { i18n } = useLinguiRuntime()
  return (
    <div className="grid gap-2 md:w-[36rem] md:grid-cols-2">
      <ul>
        {menuProducts.map((product) => (
          <li key={product.key}>
            <LocalizedLink to={product.homepage} className={itemClass}>
              <img src={product.icon} alt="" width={24} height={24} loading="lazy" className="mt-0.5 size-6" />
              <span>
                <span className="block text-sm font-medium">{i18n._(product.label)}</span>
                <span className="block text-xs text-muted-foreground">{i18n._(product.caption)}</span>
              </span>
            </LocalizedLink>
          </li>
        ))}
      </ul>
      <div>
        <p className="px-2 pt-2 text-xs font-medium uppercase tracking-wide text-muted-foreground">{t`Enterprise & others`}</p>
        <ul>
          {enterpriseProducts.map((product) => (
            <li key={product.key}>
              <LocalizedLink to={product.homepage} className={itemClass}>
                <img src={product.icon} alt="" width={24} height={24} loading="lazy" className="mt-0.5 size-6" />
                <span className="text-sm font-medium">{i18n._(product.label)}</span>
              </LocalizedLink>
            </li>
          ))}
        </ul>
        <p className="px-2 pt-3 text-xs font-medium uppercase tracking-wide text-muted-foreground">{t`Developers`}</p>
        <ul>
          <li>
            <LocalizedLink to="/{-$locale}/docs" className={itemClass}>
              <span className="text-sm font-medium">{t`Documentation`}</span>
            </LocalizedLink>
          </li>
          <li>
            <LocalizedLink to="/{-$locale}/api-reference" className={itemClass}>
              <span className="text-sm font-medium">{t`API reference`}</span>
            </LocalizedLink>
          </li>
        </ul>
        <p className="px-2 pt-3 text-xs font-medium uppercase tracking-wide text-muted-foreground">{t`Legacy products`}</p>
        <ul>
          {legacyProducts.map((legacy) => (
            <li key={legacy.key}>
              <a href={legacy.link} rel="noopener" target="_blank" className={itemClass}>
                <span className="text-sm">{legacy.label}</span>
                <ExternalLink aria-hidden className="ml-auto size-3.5 text-muted-foreground" />
              </a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  )
}

function CompanyPanel() {
  const links = useCompanyLinks()
  return (
    <ul className="min-w-48">
      {links.map((link) => (
        <li key={link.key}>
          {'download' in link ? (
            <a href={link.download} download className={itemClass}>
              <span className="text-sm">{link.label}</span>
            </a>
          ) : (
            <LocalizedLink to={link.to} className={itemClass}>
              <span className="text-sm">{link.label}</span>
            </LocalizedLink>
          )}
        </li>
      ))}
    </ul>
  )
}

export function SiteHeader() {
  const { t } = useLingui()
  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-background focus:px-3 focus:py-2"
      >
        {t`Skip to content`}
      </a>
      <nav aria-label={t`Main`} className="mx-auto flex h-14 max-w-6xl items-center gap-1 px-4">
        <LocalizedLink
          to="/{-$locale}"
          className="mr-3 flex shrink-0 items-center gap-2 font-semibold whitespace-nowrap"
          aria-label={t`${brand.name} home`}
        >
          <Logo className="size-7" />
          <span className="hidden sm:inline">{brand.name}</span>
        </LocalizedLink>
        <div className="hidden items-center gap-1 md:flex">
          <DisclosureMenu label={t`Products`}>
            <ProductsPanel />
          </DisclosureMenu>
          <LocalizedLink to="/{-$locale}/models" className={topLinkClass}>
            {t`Models`}
          </LocalizedLink>
          {/* From lg only: beside the other links it overflows a 768 px tablet in Russian; below lg the Products
              menu names it, under Developers. */}
          <LocalizedLink to="/{-$locale}/docs" className={`${topLinkClass} max-lg:hidden`}>
            {t({
              message: 'Docs',
              comment: 'The header link to the API documentation: as short as the language allows',
            })}
          </LocalizedLink>
          <DisclosureMenu label={t`Company`}>
            <CompanyPanel />
          </DisclosureMenu>
        </div>
        <div className="ml-auto flex items-center gap-1">
          <LocaleSwitcher />
          <ThemeToggle />
          <Button asChild size="sm" className="ml-1 max-sm:hidden">
            <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}">{t`API dashboard`}</LocalizedLink>
          </Button>
          <DisclosureMenu
            label={<span className="sr-only">{t`Menu`}</span>}
            icon={<Menu aria-hidden className="size-4" />}
            align="end"
            className="md:hidden"
            buttonClassName="px-2"
          >
            <div className="w-[min(90vw,36rem)] space-y-2">
              <ProductsPanel />
              <LocalizedLink to="/{-$locale}/models" className={itemClass}>
                <span className="text-sm font-medium">{t`Models`}</span>
              </LocalizedLink>
              <CompanyPanel />
              <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}" className={itemClass}>
                <span className="text-sm font-medium">{t`API dashboard`}</span>
              </LocalizedLink>
            </div>
          </DisclosureMenu>
        </div>
      </nav>
    </header>
  )
}
