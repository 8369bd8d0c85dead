import { useLingui } from '@lingui/react/macro'
import { Link } from '@tanstack/react-router'
import { Languages } from 'lucide-react'
import { interfaceLocales, localeParam, type Locale } from '~/lib/locale'
import { updateUserStore } from '~/lib/settings'
import { useLocale } from '~/lib/use-locale'
import { DisclosureMenu } from './disclosure-menu'

/** Each language in its own name, so a visitor finds theirs whatever the page's language is. */
export const localeNames: Record<Locale, string> = {
  'en-US': 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  ja: '日本語',
  ko: '한국어',
  ru: 'Русский',
}

/** Links to this page in every interface language; choosing one also stores it (spec §4). */
export function LocaleSwitcher() {
  const { t } = useLingui()
  const current = useLocale()
  return (
    <DisclosureMenu
      // Named in full only where the header has room beside the desktop links (Russian is 797 px wide at 768).
      label={<span className="sr-only sm:max-md:not-sr-only lg:not-sr-only">{localeNames[current]}</span>}
      icon={<Languages aria-hidden className="size-4" />}
      align="end"
      buttonClassName="px-2"
    >
      <p className="px-2 pb-1 text-xs text-muted-foreground">{t`Language`}</p>
      <ul className="grid grid-cols-2 gap-1">
        {interfaceLocales.map((locale) => (
          <li key={locale}>
            <Link
              to="."
              params={{ locale: localeParam(locale) }}
              search
              hrefLang={locale}
              lang={locale}
              aria-current={locale === current ? 'true' : undefined}
              onClick={() => updateUserStore((s) => ({ ...s, language: locale }))}
              className="block rounded-md px-2 py-1.5 text-sm hover:bg-accent aria-[current]:font-semibold aria-[current]:text-primary"
            >
              {localeNames[locale]}
            </Link>
          </li>
        ))}
      </ul>
    </DisclosureMenu>
  )
}
