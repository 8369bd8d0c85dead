import { setupI18n, type I18n, type Messages } from '@lingui/core'
import { use } from 'react'
import type { CatalogLocale } from '#config'

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

export type CatalogName = keyof typeof catalogs

/** A catalog's load, which React's `use` reads at once when it is already done (status and value set). */
type CatalogLoad = Promise<Messages> & { status?: 'fulfilled'; value?: Messages }

const loads = new Map<string, CatalogLoad>()

/**
 * Loads one locale's compiled catalog, once per process or page. The catalogs never travel in a page's
 * hydration data (two thirds of a page's compressed HTML, parsed before it paints): route loaders wait for
 * them, the browser fetches them as chunks of their own, cached across pages, and app/client.tsx has those a
 * page names in `<html data-catalogs>` before it hydrates.
 */
export function loadCatalog(locale: CatalogLocale, name: CatalogName = 'messages'): Promise<Messages> {
  const key = `${name}:${locale}`
  let load = loads.get(key)
  if (!load) {
    const started: CatalogLoad = catalogs[name](locale).then(({ messages }: { messages: Messages }) => {
      Object.assign(started, { status: 'fulfilled', value: messages })
      return messages
    })
    // A failed load (a network error in a browser) is tried again by the next one.
    started.catch(() => loads.delete(key))
    loads.set(key, (load = started))
  }
  return load
}

/** A catalog in a component: ready after its route's loader, or suspends until it is (React's `use`). */
export function useCatalog(locale: CatalogLocale, name: CatalogName = 'messages'): Messages {
  return use(loadCatalog(locale, name))
}

/** A catalog a route loader has loaded, for code that cannot suspend (a route's head). */
export function loadedCatalog(locale: CatalogLocale, name: CatalogName = 'messages'): Messages {
  const messages = loads.get(`${name}:${locale}`)?.value
  if (!messages) throw new Error(`The ${name} catalog of ${locale} is not loaded: its route loader loads it first`)
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
