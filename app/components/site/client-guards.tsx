import { useLocation, useNavigate } from '@tanstack/react-router'
import { useEffect } from 'react'
import { apiKeyCookie } from '~/lib/api-key-cookie'
import { localeFromPathname, localizePath, resolveLocale, stripLocale } from '~/lib/locale'
import { scrollToSelector } from '~/lib/scroll'
import { getUserStore, storeValue, updateUserStore, useUserStore } from '~/lib/settings'
import { sourceLocale } from '../../../app.config'

/**
 * The guards of spec §2/§4 that depend on local storage, so only the browser can run them:
 * stored language, showFarewell, the `s` parameter, the apiKey cookie, and unhiding the app root.
 */
export function ClientGuards() {
  const location = useLocation()
  const navigate = useNavigate()
  const { apiKey } = useUserStore()

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
    const search = new URLSearchParams(location.searchStr)
    const s = search.get('s')
    if (s !== null) {
      storeValue('s', s)
      search.delete('s')
      const rest = search.toString()
      void navigate({ to: `${location.pathname}${rest ? `?${rest}` : ''}` as never, replace: true })
      return
    }
    const urlLocale = localeFromPathname(location.pathname)
    const store = getUserStore()
    if (urlLocale) {
      // A language in the URL overrides the stored one.
      if (store.language !== urlLocale) updateUserStore((s) => ({ ...s, language: urlLocale }))
    } else {
      const stored = resolveLocale(store.language)
      if (stored && stored !== sourceLocale) {
        void navigate({ to: `${localizePath(location.pathname, stored)}${location.searchStr}` as never, replace: true })
        return
      }
    }
    if (stripLocale(location.pathname) === '/' && store.settings.showFarewell) {
      const locale = urlLocale ?? sourceLocale
      void navigate({ to: localizePath('/api-dashboard', locale) as never, search: { login: true } as never, replace: true })
    }
  }, [location.pathname, location.searchStr, navigate])

  return null
}
