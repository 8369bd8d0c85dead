import { setupI18n, type I18n, type Messages } from '@lingui/core'
import type { CatalogLocale } from '../../app.config'

/**
 * The compiled catalogs by name (see lingui.config.ts). One import per name, the name written out: Vite
 * then splits each locale's catalog into its own chunk, and only the active one is fetched.
 */
const catalogs = {
  /** Every page's messages: the root route's loader. */
  messages: (locale: CatalogLocale) => import(`../../locales/${locale}/messages.po`),
  /** The live screens' own (dashboard, sign-in, checkout): their layout routes' loaders. */
  app: (locale: CatalogLocale) => import(`../../locales/${locale}/app.po`),
}

/** Loads one locale's compiled catalog. */
export async function loadMessages(
  locale: CatalogLocale,
  catalog: keyof typeof catalogs = 'messages',
): Promise<Messages> {
  const { messages } = (await catalogs[catalog](locale)) as { messages: Messages }
  return messages
}

const instances = new WeakMap<Messages, I18n>()

/** An i18n instance per catalog object, so concurrent server requests in different locales never share state. */
export function i18nFor(locale: string, messages: Messages): I18n {
  let i18n = instances.get(messages)
  if (!i18n || i18n.locale !== locale) {
    i18n = setupI18n({ locale, messages: { [locale]: messages } })
    // A message the loaded catalogs lack shows as its id: a live screen's string on a marketing page (see
    // lingui.config.ts), or a catalog not loaded. Said aloud, so the browser tests fail on it.
    i18n.on('missing', ({ id }) => console.error(`Message ${id} is missing from the ${locale} catalogs`))
    instances.set(messages, i18n)
  }
  return i18n
}

const merged = new WeakMap<Messages, WeakMap<Messages, Messages>>()

/**
 * The root catalog with a live screen's own on top: one object per pair of catalog objects, so i18nFor gives
 * each pair (and so each locale) one instance of its own, and a re-render gets the same one back.
 */
export function withAppMessages(rootMessages: Messages, appMessages: Messages): Messages {
  let byApp = merged.get(rootMessages)
  if (!byApp) merged.set(rootMessages, (byApp = new WeakMap()))
  let messages = byApp.get(appMessages)
  if (!messages) byApp.set(appMessages, (messages = { ...rootMessages, ...appMessages }))
  return messages
}
