import { useNavigate } from '@tanstack/react-router'
import { localeParam } from '~/lib/locale'
import { useLocale } from '~/lib/use-locale'
import type { DashboardTab } from '~/lib/dashboard-tabs'

/** Opens a dashboard tab in the visitor's language, in place (a notification's button leads there). */
export function useOpenTab(): (tab: DashboardTab) => void {
  const navigate = useNavigate()
  const locale = useLocale()
  return (tab) =>
    void navigate({ to: '/{-$locale}/api-dashboard/{-$tab}', params: { locale: localeParam(locale), tab }, search: {} })
}
