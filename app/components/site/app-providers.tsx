import { LinguiContext } from '@lingui/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { getRouteApi } from '@tanstack/react-router'
import { useMemo, useState, type ReactNode } from 'react'
import { Toaster } from 'sonner'
import { i18nFor, useCatalog, withAppMessages } from '~/lib/i18n'
import { resolveNotifyOptions, toasterPosition } from '~/lib/notify-options'

/** Spec §9's defaults (bottom, 5000 ms); each notification may ask for others through notify(). */
const defaults = resolveNotifyOptions()!

const rootRoute = getRouteApi('__root__')

/**
 * The page's i18n with the live screens' catalog on top. Provided as Lingui's context itself: its
 * I18nProvider takes up a new instance only in an effect, so after a language switch the screen kept the
 * old language for a render under the new `lang`.
 */
function AppMessagesProvider({ children }: { children: ReactNode }) {
  const { locale } = rootRoute.useLoaderData()
  const i18n = i18nFor(locale, withAppMessages(useCatalog(locale), useCatalog(locale, 'app')))
  const context = useMemo(() => ({ i18n, _: i18n.t.bind(i18n) }), [i18n])
  return <LinguiContext.Provider value={context}>{children}</LinguiContext.Provider>
}

/**
 * Data fetching, notifications and their own messages for the interactive parts (dashboard, sign-in,
 * checkout). Kept out of the root so marketing pages never download TanStack Query or the toaster.
 * The live screens' catalog is locales/<locale>/app.po, which the screen's route loaded (see lingui.config.ts).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: 1 } } }),
  )
  return (
    <AppMessagesProvider>
      <QueryClientProvider client={queryClient}>
        {children}
        <Toaster position={toasterPosition[defaults.position]} duration={defaults.timeout} richColors closeButton />
      </QueryClientProvider>
    </AppMessagesProvider>
  )
}
