import { setupI18n, type I18n, type Messages } from '@lingui/core'
import type { CatalogLocale } from '../../app.config'

/** Loads one compiled catalog; Vite splits each locale into its own chunk, so only the active one is fetched. */
export async function loadMessages(locale: CatalogLocale): Promise<Messages> {
  const { messages } = (await import(`../../locales/${locale}/messages.po`)) as { messages: Messages }
  return messages
}

const instances = new WeakMap<Messages, I18n>()

/** An i18n instance per catalog object, so concurrent server requests in different locales never share state. */
export function i18nFor(locale: string, messages: Messages): I18n {
  let i18n = instances.get(messages)
  if (!i18n || i18n.locale !== locale) {
    i18n = setupI18n({ locale, messages: { [locale]: messages } })
    instances.set(messages, i18n)
  }
  return i18n
}
