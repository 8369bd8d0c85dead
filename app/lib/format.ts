import { useLingui } from '@lingui/react'
import { useMemo } from 'react'
import { formatAxisDay, formatDay, formatInstant } from '~/lib/dates'
import { constants } from '#config'

/** Spec §9: the free pack every trial key starts with. */
export const freePackTokens = constants.freePackTokens

/** Number and date formatters for the active interface locale. */
export function useFormat() {
  const { i18n } = useLingui()
  const locale = i18n.locale
  return useMemo(() => {
    const integer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 })
    const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 })
    return {
      tokens: (n: number) => integer.format(n),
      money: (amount: number, currency: string) =>
        new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount),
      /** US dollars to the cent, and finer under it (a spend limit may be a fraction of a cent). */
      dollars: (amount: number) =>
        new Intl.NumberFormat(locale, {
          style: 'currency',
          currency: 'USD',
          minimumFractionDigits: 2,
          maximumFractionDigits: 6,
        }).format(amount),
      compactTokens: (n: number) => compact.format(n),
      dateTime: (iso: string) => formatInstant(locale, iso, { withTime: true }),
      /** `YYYY-MM-DD` buckets are UTC days. */
      day: (date: string) => formatDay(locale, date),
      axisDay: (date: string) => formatAxisDay(locale, date),
    }
  }, [locale])
}

/** Shows only the start and end of a key, so it can be recognised on screen without being readable in full. */
export function maskKey(apiKey: string): string {
  return apiKey.length <= 12 ? '•'.repeat(apiKey.length) : `${apiKey.slice(0, 8)}…${apiKey.slice(-4)}`
}
