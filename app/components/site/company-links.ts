import { useLingui } from '@lingui/react/macro'
import type { PagePath } from '~/lib/page-path'
import { brand } from '#config'

/** A page of the site, or a file to download (the logo kit). */
export type CompanyLink = { key: string; label: string } & ({ to: PagePath } | { download: string })

/** Spec §2 company menu: legal terms appear in the menu; the logo kit is a file download. */
export function useCompanyLinks(): CompanyLink[] {
  const { t } = useLingui()
  return [
    { key: 'about-us', label: t`About us`, to: '/{-$locale}/about-us' },
    { key: 'contact-sales', label: t`Contact sales`, to: '/{-$locale}/contact-sales' },
    { key: 'news', label: t`News`, to: '/{-$locale}/news' },
    { key: 'internship', label: t`Internship`, to: '/{-$locale}/internship' },
    { key: 'legal', label: t`Legal terms`, to: '/{-$locale}/legal' },
    { key: 'logo', label: t`Download logo kit`, download: brand.logoZip },
  ]
}
