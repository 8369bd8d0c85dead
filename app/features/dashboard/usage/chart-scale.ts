/**
 * The value axis of a bar chart: a top a little above `max`, divided into `count` steps of a round size
 * (1, 2, 2.5 or 5 times a power of ten, whole numbers only: tokens do not come in halves).
 */
export function niceScale(max: number, count = 4): { top: number; ticks: number[] } {
  const raw = Math.max(max, 1) / count
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const factor = [1, 2, 2.5, 5, 10].find((f) => f * magnitude >= raw && Number.isInteger(f * magnitude)) ?? 10
  const step = Math.max(1, factor * magnitude)
  const top = step * Math.max(1, Math.ceil(max / step))
  return { top, ticks: Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step) }
}

/**
 * Which of `n` days get a date under them: every other one for a week, else the first, the middle and the
 * last, which fit side by side under the 190 px plot of a 320 px phone in every interface language.
 */
export function axisLabelIndices(n: number): number[] {
  if (n <= 0) return []
  if (n <= 7) return Array.from({ length: Math.ceil(n / 2) }, (_, i) => i * 2).filter((i) => i < n)
  return [0, Math.round((n - 1) / 2), n - 1]
}
