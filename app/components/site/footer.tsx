import { useLingui as useLinguiRuntime } from '@lingui/react'
import { useLingui } from '@lingui/react/macro'
import { enterpriseProducts, menuProducts } from '#content/products'
import { offices } from '#content/offices'
import { ossProjects } from '#content/oss'
import { SocialLinks } from './social-links'
import { LocalizedLink } from './localized-link'
import { useCompanyLinks } from './company-links'
import { OssStatusBadge } from './oss-status-badge'
import { brand } from '#config'

export function SiteFooter() {
  const { t } = useLingui()
  const { i18n } = useLinguiRuntime()
  const companyLinks = useCompanyLinks()
  const linkClass = 'text-sm text-muted-foreground hover:text-foreground'
  return (
    <footer className="mt-24 border-t bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <section aria-labelledby="footer-products">
          <h2 id="footer-products" className="text-sm font-semibold">{t`Products`}</h2>
          <ul className="mt-3 space-y-2">
            {[...menuProducts, ...enterpriseProducts].map((product) => (
              <li key={product.key}>
                <LocalizedLink to={product.homepage} className={linkClass}>
                  {i18n._(product.label)}
                </LocalizedLink>
              </li>
            ))}
            <li>
              <LocalizedLink to="/{-$locale}/models" className={linkClass}>{t`Models`}</LocalizedLink>
            </li>
            <li>
              <LocalizedLink
                to="/{-$locale}/api-dashboard/{-$tab}"
                className={linkClass}
              >{t`API dashboard`}</LocalizedLink>
            </li>
            <li>
              <LocalizedLink to="/{-$locale}/docs" className={linkClass}>{t`Documentation`}</LocalizedLink>
            </li>
            <li>
              <LocalizedLink to="/{-$locale}/api-reference" className={linkClass}>{t`API reference`}</LocalizedLink>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-company">
          <h2 id="footer-company" className="text-sm font-semibold">{t`Company`}</h2>
          <ul className="mt-3 space-y-2">
            {companyLinks.map((link) => (
              <li key={link.key}>
                {'download' in link ? (
                  <a href={link.download} download className={linkClass}>
                    {link.label}
                  </a>
                ) : (
                  <LocalizedLink to={link.to} className={linkClass}>
                    {link.label}
                  </LocalizedLink>
                )}
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="footer-offices">
          <h2 id="footer-offices" className="text-sm font-semibold">{t`Offices`}</h2>
          <div className="mt-3 space-y-4">
            {offices.map((office) => (
              <address key={office.id} className="text-sm not-italic text-muted-foreground">
                <span className="block font-medium text-foreground">
                  {i18n._(office.label)}
                  {office.kind === 'headquarters' && (
                    <span className="ml-2 text-xs font-normal text-muted-foreground">({t`Headquarters`})</span>
                  )}
                </span>
                {office.address.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </address>
            ))}
          </div>
        </section>
        <section aria-labelledby="footer-oss">
          <h2 id="footer-oss" className="text-sm font-semibold">{t`Open source`}</h2>
          <ul className="mt-3 space-y-2">
            {ossProjects.map((project) => (
              <li key={project.name} className="flex items-center justify-between gap-2">
                <a href={project.repo} rel="noopener" target="_blank" className={linkClass}>
                  {project.name}
                </a>
                <OssStatusBadge status={project.status} />
              </li>
            ))}
          </ul>
        </section>
      </div>
      <div className="mx-auto flex max-w-6xl flex-col gap-4 border-t px-4 py-6 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">
          © {new Date().getFullYear()} {brand.legalName}.{' '}
          <a href={`mailto:${brand.supportEmail}`} className="underline-offset-4 hover:underline">
            {brand.supportEmail}
          </a>
        </p>
        <SocialLinks />
      </div>
    </footer>
  )
}
