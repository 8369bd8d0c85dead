import { useLingui } from '@lingui/react'

/** Content dates are written yyyy/mm/dd; they name a calendar day, so they are read and shown in UTC. */
export function contentDateToDate(date: string): Date {
  const [y, m, d] = date.split('/').map(Number)
  return new Date(Date.UTC(y, m - 1, d))
}

/** The machine-readable form for `<time dateTime>` and JSON-LD. */
export function isoDate(date: string): string {
  return date.replaceAll('/', '-')
}

const styles = {
  numeric: { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' },
  long: { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>

export type DateStyle = keyof typeof styles

/** Formats a content date in the active locale (2025/10/01 → "10/01/2025" in en-US, "2025/10/01" in ja). */
export function useFormatContentDate() {
  const { i18n } = useLingui()
  return (date: string, style: DateStyle = 'numeric') => i18n.date(contentDateToDate(date), styles[style])
}

/**
 * Token counts as model cards print them: powers of two in binary K (131072 → 128K, 524288 → 512K),
 * round thousands in decimal K (256000 → 256K), anything else as a localized number.
 */
export function useFormatTokens() {
  const { i18n } = useLingui()
  return (n: number) => {
    if (n >= 1024 && n % 1024 === 0) return `${i18n.number(n / 1024)}K`
    if (n >= 1000 && n % 1000 === 0) return `${i18n.number(n / 1000)}K`
    return i18n.number(n)
  }
}
