import { useLingui } from '@lingui/react'
import { useMemo } from 'react'
import { useFormat } from '~/lib/format'
import { useHydrated } from '~/lib/use-api-key'

/**
 * A moment with its time, as `useFormat().dateTime` writes it, for screens the server renders: the server does
 * not know the visitor's time zone, so it and the hydrating render write UTC (the same text, no mismatch), and
 * the browser's zone takes over right after.
 */
export function useDateTime(): (iso: string) => string {
  const { i18n } = useLingui()
  const format = useFormat()
  const hydrated = useHydrated()
  const utc = useMemo(
    () => new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }),
    [i18n.locale],
  )
  return hydrated ? format.dateTime : (iso) => utc.format(new Date(iso))
}
