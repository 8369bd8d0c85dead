import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'
import { resolveLocale, stripLocale } from '~/lib/locale'

/**
 * Every page lives under an optional locale segment. Guards that the server can decide (spec §2):
 * an unsupported locale goes to landing; `sui` on a non-dashboard page goes to the dashboard,
 * keeping the locale prefix and the query.
 */
export const Route = createFileRoute('/{-$locale}')({
  beforeLoad: ({ params, location }) => {
    if (params.locale !== undefined && !resolveLocale(params.locale)) throw redirect({ to: '/{-$locale}', params: { locale: undefined }, replace: true })
    const search = location.search as Record<string, unknown>
    if ('sui' in search && !stripLocale(location.pathname).startsWith('/api-dashboard')) {
      throw redirect({ to: '/{-$locale}/api-dashboard/{-$tab}', params: { locale: params.locale, tab: undefined }, search: search as never, replace: true })
    }
  },
  component: Outlet,
})
