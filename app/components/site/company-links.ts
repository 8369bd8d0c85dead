import { useLingui } from '@lingui/react/macro'
import { brand } from '../../../app.config'

export interface CompanyLink {
  key: string
  label: string
  to: string
  external?: boolean
}

/** Spec §2 company menu: legal terms appear in the menu; the logo kit is a file download. */
export function useCompanyLinks(): CompanyLink[] {
  const { t } = useLingui()
  return [
    { key: 'about-us', label: t`About us`, to: '/about-us' },
    { key: 'contact-sales', label: t`Contact sales`, to: '/contact-sales' },
    { key: 'news', label: t`News`, to: '/news' },
    { key: 'internship', label: t`Internship`, to: '/internship' },
    { key: 'legal', label: t`Legal terms`, to: '/legal' },
    { key: 'logo', label: t`Download logo kit`, to: brand.logoZip, external: true },
  ]
}
