import { useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { setApiKey } from '~/lib/use-api-key'
import { useDashboardKey } from '../dashboard-key'
import { notify } from '../notify'
import { forgetKeyData } from '../queries'

/**
 * Puts a key into use in this browser, when the user asks: the only way a new key becomes the one every tab
 * shows (issue 42: creating a key used to switch the dashboard to it unasked).
 */
export function useKeyHere(): (apiKey: string, label: string) => void {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const { apiKey: current } = useDashboardKey()
  return (apiKey, label) => {
    if (current && current !== apiKey) forgetKeyData(queryClient, current)
    setApiKey(apiKey)
    notify.success(t`This browser now uses ${label}.`)
  }
}
