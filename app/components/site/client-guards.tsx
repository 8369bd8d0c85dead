import { useLocation, useNavigate, useSearch } from '@tanstack/react-router'
import { useEffect } from 'react'
import { apiKeyCookie } from '~/lib/api-key-cookie'
import { farewellSendsToDashboard } from '~/lib/farewell'
import { localeFromPathname, localeParam, resolveLocale, stripLocale } from '~/lib/locale'
import { scrollToSelector } from '~/lib/scroll'
import { getUserStore, storeValue, updateUserStore, useUserStore } from '~/lib/settings'
import { sourceLocale } from '#config'

/**
 * The guards of spec §2/§4 that depend on local storage, so only the browser can run them:
 * stored language, the farewell redirect, the `s` parameter, the apiKey cookie, and unhiding the app root.
 */
export function ClientGuards() {
  const location = useLocation()
  const navigate = useNavigate()
  const { apiKey } = useUserStore()
  // The locale route's validated search; undefined outside it.
  const s = useSearch({ from: '/{-$locale}', shouldThrow: false, select: (search) => search.s })

  useEffect(() => {
    document.getElementById('app')?.setAttribute('data-mounted', 'true')
  }, [])

  useEffect(() => {
    document.cookie = apiKeyCookie(apiKey, window.location.hostname)
  }, [apiKey])

  // Sections linked by hash may render late; land below the sticky header once they exist.
  useEffect(() => {
    if (location.hash) void scrollToSelector(`#${CSS.escape(location.hash)}`)
  }, [location.pathname, location.hash])

  useEffect(() => {
    if (s === undefined) return
    storeValue('s', String(s))
    void navigate({ to: '.', search: ({ s: _, ...rest }) => rest, replace: true })
  }, [s, navigate])

  useEffect(() => {
    // The location changes before the matches do: wait until `s` has left both, so redirects do not race.
    if (s !== undefined) return
    const urlLocale = localeFromPathname(location.pathname)
    const store = getUserStore()
    if (urlLocale) {
      // A language in the URL overrides the stored one.
      if (store.language !== urlLocale) updateUserStore((s) => ({ ...s, language: urlLocale }))
    } else {
      const stored = resolveLocale(store.language)
      if (stored && stored !== sourceLocale) {
        void navigate({ to: '.', params: { locale: localeParam(stored) }, search: true, replace: true })
        return
      }
    }
    if (stripLocale(location.pathname) === '/' && farewellSendsToDashboard(store)) {
      const locale = urlLocale ?? sourceLocale
      void navigate({
        to: '/{-$locale}/api-dashboard/{-$tab}',
        params: { locale: localeParam(locale), tab: undefined },
        search: { login: true },
        replace: true,
      })
    }
  }, [location.pathname, location.searchStr, s, navigate])

  return null
}
