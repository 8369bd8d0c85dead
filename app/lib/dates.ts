/**
 * Every date a visitor reads, in one format per locale: Intl's medium date style ("Oct 1, 2025" in en-US,
 * "01.10.2025" in de, "2025/10/01" in ja). It names the month or orders the fields as the locale does, so
 * "10/01/2025" can never be read as January.
 */
const dateStyle = 'medium'

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(locale: string, kind: 'day' | 'instant' | 'instantWithTime' | 'axis') {
  const key = `${locale}|${kind}`
  let format = formatters.get(key)
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'day'
        ? { dateStyle, timeZone: 'UTC' }
        : kind === 'instant'
          ? { dateStyle }
          : kind === 'instantWithTime'
            ? { dateStyle, timeStyle: 'short' }
            : { month: 'short', day: 'numeric', timeZone: 'UTC' }
    format = new Intl.DateTimeFormat(locale, options)
    formatters.set(key, format)
  }
  return format
}

/**
 * A calendar day written `YYYY-MM-DD` or `YYYY/MM/DD` (content dates, usage buckets). It names a day, not a
 * moment, so it is read and shown in UTC: the same day in every time zone.
 */
export function calendarDay(day: string): Date {
  const [y, m, d] = day.split(/[-/]/).map(Number)
  return new Date(Date.UTC(y, m - 1, d))
}

/** A calendar day in the locale's date format. */
export function formatDay(locale: string, day: string): string {
  return formatter(locale, 'day').format(calendarDay(day))
}

/** A moment (an ISO timestamp) as a date in the visitor's time zone, with the time when asked. */
export function formatInstant(locale: string, iso: string, { withTime = false } = {}): string {
  return formatter(locale, withTime ? 'instantWithTime' : 'instant').format(new Date(iso))
}

/** A calendar day as a chart axis names it: the year is left out, it is the same along the axis. */
export function formatAxisDay(locale: string, day: string): string {
  return formatter(locale, 'axis').format(calendarDay(day))
}

/** The machine-readable form of a content date (yyyy/mm/dd) for `<time dateTime>` and JSON-LD. */
export function isoDate(date: string): string {
  return date.replaceAll('/', '-')
}
