import { createFileRoute, Outlet, redirect } from '@tanstack/react-router'
import { localeSearchSchema } from '~/lib/guard-search'
import { resolveLocale, stripLocale } from '~/lib/locale'

/**
 * Every page lives under an optional locale segment. Guards that the server can decide (spec §2):
 * an unsupported locale goes to landing; `sui` on a non-dashboard page goes to the dashboard,
 * keeping the locale prefix and the query.
 */
export const Route = createFileRoute('/{-$locale}')({
  validateSearch: localeSearchSchema,
  beforeLoad: ({ params, location, search }) => {
    if (params.locale !== undefined && !resolveLocale(params.locale))
      throw redirect({ to: '/{-$locale}', params: { locale: undefined }, replace: true })
    if (search.sui !== undefined && !stripLocale(location.pathname).startsWith('/api-dashboard')) {
      // The query as it came rather than as validated, so every parameter reaches the dashboard unchanged.
      throw redirect({
        to: '/{-$locale}/api-dashboard/{-$tab}',
        params: { locale: params.locale, tab: undefined },
        search: location.search,
        replace: true,
      })
    }
  },
  component: Outlet,
})
