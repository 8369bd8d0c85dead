import { useLingui } from '@lingui/react'
import { formatDay, isoDate } from '~/lib/dates'

/** A content date (yyyy/mm/dd) in the locale's one date format, machine-readable in `dateTime`. */
export function ContentDate({ date, className }: { date: string; className?: string }) {
  const { i18n } = useLingui()
  return (
    <time dateTime={isoDate(date)} className={className}>
      {formatDay(i18n.locale, date)}
    </time>
  )
}
