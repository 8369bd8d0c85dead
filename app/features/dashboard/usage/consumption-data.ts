import type { ConsumptionTotals } from '~/contracts/billing'

const DAY = 86_400_000

/** The periods the usage tab offers, in days; the first screen shows the middle one. */
export const usagePeriods = [7, 30, 90] as const
export const usagePeriodDays: (typeof usagePeriods)[number] = 30

/** UTC calendar date of a timestamp, `YYYY-MM-DD`. */
export const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10)

/** A period of whole UTC days, as the usage reads take it. */
export type DayRange = { start: string; end: string }

/** What each card of the usage tab shows: one key's (or its account's) period of `days` days. */
export type UsagePeriod = { apiKey: string; range: DayRange; days: number }

/** The last `days` UTC days, today included, as the server's inclusive `start`/`end` query. */
export function lastDays(days: number, now = Date.now()): DayRange {
  const today = Math.floor(now / DAY) * DAY
  return { start: utcDate(today - (days - 1) * DAY), end: utcDate(today) }
}

export type ChartRow = { date: string } & Record<string, number | string>

/** One row per day of the range (days without usage are zero), one column per product, for a stacked chart. */
export function chartRows(totals: ConsumptionTotals, range: DayRange): { rows: ChartRow[]; products: string[] } {
  const products = Object.entries(totals.by_product)
    .sort(([, a], [, b]) => b - a)
    .map(([product]) => product)
  const byDate = new Map(totals.by_day.map((day) => [day.date, day.by_product]))
  const rows: ChartRow[] = []
  for (let ms = Date.parse(`${range.start}T00:00:00Z`); ms <= Date.parse(`${range.end}T00:00:00Z`); ms += DAY) {
    const date = utcDate(ms)
    const usage = byDate.get(date) ?? {}
    rows.push({ date, ...Object.fromEntries(products.map((product) => [product, usage[product] ?? 0])) })
  }
  return { rows, products }
}
