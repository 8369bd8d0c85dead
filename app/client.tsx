import { StartClient } from '@tanstack/react-start/client'
import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { loadCatalog, type CatalogName } from '~/lib/i18n'
import { isCatalogLocale } from '~/lib/locale'
import { sourceLocale } from '#config'

// Start's own client entry, except that the page's catalogs are loaded before it hydrates: they are not in the
// hydration data (lib/i18n.ts), and the route heads and screens read them at once. The server names them in
// <html lang> and data-catalogs (routes/__root.tsx); each is a chunk the browser keeps for the next page.
const root = document.documentElement
const locale = isCatalogLocale(root.lang) ? root.lang : sourceLocale
const names = ['messages', ...(root.dataset.catalogs?.split(' ') ?? [])] as CatalogName[]

// Hydrated even if a catalog failed to arrive: a screen that reads it asks again (and suspends until it comes).
void Promise.allSettled(names.map((name) => loadCatalog(locale, name))).then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <StartClient />
      </StrictMode>,
    )
  }),
)
