import { useLingui } from '@lingui/react'
import type { Locale } from './locale'

/** The active interface locale (settled on the server from the URL and dehydrated with its catalog). */
export function useLocale(): Locale {
  return useLingui().i18n.locale as Locale
}
